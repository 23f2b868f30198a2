/**
 * The number of 429 `rate_limited` answers a per-token limit implies (seed 004 "Интерфейс":
 * 600 `shown` calls a minute per token), for the load bench's check. The server counts
 * calls in fixed windows of {@link RATE_WINDOW_MS} from the epoch (`markShown`).
 */
import { RATE_WINDOW_MS } from "../../core/stats/usage-stats.js";

/** One call of a token as the client saw it. */
export interface TimedCall {
  /** The token (or its user's name). */
  tag: string;
  /** When the request left and when its answer came, ms since the epoch. */
  sentAt: number;
  answeredAt: number;
}

/**
 * The 429s the limit implies: per token and minute window, the calls beyond `limit`. A call
 * whose send and answer fall in two windows may have been counted in either, so the answer
 * is a range: the least and the most 429s over every placement of those calls (each token
 * has at most its few connections' calls in flight at an edge, so trying them all is cheap).
 */
export function expected429(answers: readonly TimedCall[], limit: number): [number, number] {
  let least = 0;
  let most = 0;
  for (const tag of new Set(answers.map((a) => a.tag))) {
    const sure = new Map<number, number>();
    const edges = new Map<number, number>();
    for (const a of answers) {
      if (a.tag !== tag) continue;
      const from = Math.floor(a.sentAt / RATE_WINDOW_MS);
      const to = Math.floor(a.answeredAt / RATE_WINDOW_MS);
      // A call longer than a window does not happen here (timeout 30 s); count it in both.
      if (from === to) sure.set(from, (sure.get(from) ?? 0) + 1);
      else edges.set(from, (edges.get(from) ?? 0) + 1);
    }
    const edgeList = [...edges.entries()];
    let tokenLeast = Number.POSITIVE_INFINITY;
    let tokenMost = 0;
    const place = (i: number, counts: Map<number, number>): void => {
      if (i === edgeList.length) {
        let over = 0;
        for (const n of counts.values()) over += Math.max(0, n - limit);
        tokenLeast = Math.min(tokenLeast, over);
        tokenMost = Math.max(tokenMost, over);
        return;
      }
      const [w, e] = edgeList[i] as [number, number];
      for (let k = 0; k <= e; k++) {
        const next = new Map(counts);
        next.set(w, (next.get(w) ?? 0) + k);
        next.set(w + 1, (next.get(w + 1) ?? 0) + e - k);
        place(i + 1, next);
      }
    };
    place(0, sure);
    least += tokenLeast;
    most += tokenMost;
  }
  return [least, most];
}
