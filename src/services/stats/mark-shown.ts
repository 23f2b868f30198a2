/**
 * Marking a batch of entries shown (seed 004 "Интерфейс": `POST
 * /repos/{owner}/{name}/knowledge/shown` — «Показ отмечается пачкой — до 256 записей за
 * вызов»; «предела частоты этого вызова (600 обращений в минуту на токен) хватает с
 * запасом»; «Чтение счётчиков всегда точное, даже сразу после отметки показа»).
 *
 * No rights are checked here: the caller (`main/server-stats.ts`) has authorized the
 * repository first.
 */
import type { Principal } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { RATE_WINDOW_MS, SHOWN_BATCH_MAX, type ShownAnswer } from "../../core/stats/usage-stats.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { CounterStore } from "../../ports/index-store.js";
import type { ServerStore } from "../../ports/server-store.js";
import { foldEntryId } from "./entry-ids.js";

/** The route name of the rate slots of `shown` (`ServerStore.takeRateSlot`). */
export const SHOWN_RATE_ROUTE = "shown";

/** What {@link markShown} needs. */
export interface MarkShownDeps {
  index: EntryIndex;
  /** Where the counts are written, durably (the index store's counters). */
  counters: Pick<CounterStore, "recordShown">;
  /** The per-token rate slots (shared by every server process on the data folder). */
  store: Pick<ServerStore, "takeRateSlot">;
  /** Calls per token per minute (`[server] shown_rate_limit`); 0 = no limit. */
  shownRateLimit: number;
  /** The clock, ms since the epoch. */
  now: () => number;
}

/** One call of {@link markShown}. */
export interface MarkShownInput {
  /** The caller: counted to `principal.user`, rate-limited per `principal.tokenId`. */
  principal: Principal;
  /** The index repository name (`owner/name`), rights already checked. */
  repo: string;
  /** The batch as sent. */
  ids: readonly string[];
}

/**
 * Counts one showing to the caller of each distinct id of the batch that is an entry or a
 * draft of the repository, durably (one committed transaction: the answer survives a kill
 * -9), and reports the other ids back, uncounted. A repeated id of one batch counts once.
 * Order of the checks: the batch size (a refused batch takes no rate slot), then the rate
 * limit (a refused call counts nothing), then the ids.
 *
 * @param deps - see {@link MarkShownDeps}.
 * @param input - see {@link MarkShownInput}.
 * @returns `{counted, unknown}`: the distinct known ids counted; the unknown ids as sent,
 *   each once, in the batch's order.
 * @throws LoreError `batch_too_large` (more than {@link SHOWN_BATCH_MAX} ids, data `{max,
 *   count}`); `rate_limited` (the token's calls this minute reached the limit; data
 *   `{retry_after}` whole seconds to the next window, `{limit}`).
 */
export async function markShown(deps: MarkShownDeps, input: MarkShownInput): Promise<ShownAnswer> {
  if (input.ids.length > SHOWN_BATCH_MAX) {
    throw new LoreError(
      "batch_too_large",
      { max: SHOWN_BATCH_MAX, count: input.ids.length },
      { data: { max: SHOWN_BATCH_MAX, count: input.ids.length } },
    );
  }
  await takeShownSlot(deps, input.principal.tokenId);
  const asked = new Map<string, string>();
  for (const id of input.ids) {
    const folded = foldEntryId(id);
    if (!asked.has(folded)) asked.set(folded, id);
  }
  const known = deps.index.knownIds(input.repo, [...asked.keys()]);
  const counted = [...asked.keys()].filter((id) => known.has(id));
  const unknown = [...asked].filter(([folded]) => !known.has(folded)).map(([, given]) => given);
  const keys = counted.map((id) => ({ repo: input.repo, id }));
  await deps.counters.recordShown(input.principal.user, keys, deps.now());
  return { counted: counted.length, unknown };
}

/**
 * Takes one of the token's `shown` calls of this minute's window (fixed windows of
 * {@link RATE_WINDOW_MS}).
 *
 * @throws LoreError `rate_limited` when none is left.
 */
async function takeShownSlot(deps: MarkShownDeps, tokenId: number): Promise<void> {
  const limit = deps.shownRateLimit;
  if (limit <= 0) return;
  const now = deps.now();
  const windowStart = Math.floor(now / RATE_WINDOW_MS) * RATE_WINDOW_MS;
  const taken = await deps.store.takeRateSlot({
    tokenId,
    route: SHOWN_RATE_ROUTE,
    windowStart,
    limit,
  });
  if (taken) return;
  const retryAfter = Math.max(1, Math.ceil((windowStart + RATE_WINDOW_MS - now) / 1000));
  throw new LoreError(
    "rate_limited",
    {
      route: "POST …/knowledge/shown",
      route_ru: "POST …/knowledge/shown",
      limit,
      retry_after: retryAfter,
    },
    { data: { retry_after: retryAfter, limit } },
  );
}
