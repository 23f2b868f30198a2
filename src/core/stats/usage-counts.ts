/**
 * Usage counts of entries (DESIGN.md glossary "shown / read"; seed 004, stats): the key a
 * count is kept by, one user's counter row, and how a batch of counts folds into one change
 * per row. Pure; shared by the counters on SQLite (`index/counters.ts`) and on PostgreSQL
 * (`index/index-store/pg-counter-store.ts`), so both keep the same numbers and times.
 */
import { dayOf } from "./usage-days.js";

/**
 * What a count is kept by beside the user (migration 8): the repository the entry belongs
 * to — its source, a draft's `draft:<repo>` folded into `<repo>` — and the entry id. Ids are
 * unique per source only, so the id alone would mix two repositories' entries.
 */
export interface CountKey {
  repo: string;
  id: string;
}

/** The repository a source's counts are kept under: a draft's are its repository's. */
export function countingRepo(source: string): string {
  return source.startsWith("draft:") ? source.slice("draft:".length) : source;
}

/** One user's counts for one entry; times are ms since the Unix epoch, `null` when never. */
export interface CounterRow {
  user: string;
  /** The repository the counts are kept under (see {@link CountKey}). */
  repo: string;
  entryId: string;
  shown: number;
  read: number;
  firstShownAt: number | null;
  lastShownAt: number | null;
  firstReadAt: number | null;
  lastReadAt: number | null;
}

/** One count, its repository already folded ({@link countingRepo}). */
export interface UsageCount {
  kind: "shown" | "read";
  user: string;
  repo: string;
  entryId: string;
  /** ms since the epoch. */
  now: number;
}

/**
 * The counts one showing makes: one `shown` per listed entry (a repeated one counts each
 * time), each under its counting repository ({@link countingRepo}).
 *
 * @param user - who was shown them.
 * @param entries - the listed entries, by repository (source) and id.
 * @param now - when, ms since the epoch.
 */
export function shownCounts(user: string, entries: readonly CountKey[], now: number): UsageCount[] {
  return entries.map(({ repo, id }) => ({
    kind: "shown",
    user,
    repo: countingRepo(repo),
    entryId: id,
    now,
  }));
}

/**
 * The count one read makes, under its counting repository ({@link countingRepo}).
 *
 * @param user - who opened it.
 * @param entry - the entry, by repository (source) and id.
 * @param now - when, ms since the epoch.
 */
export function readCount(user: string, entry: CountKey, now: number): UsageCount {
  return { kind: "read", user, repo: countingRepo(entry.repo), entryId: entry.id, now };
}

/**
 * The change a batch makes to one counter row: counts added, and the times the row takes
 * when it has none yet (`first*`: the batch's first count of the kind, in batch order, as
 * counting them one by one would keep) or when they are later (`last*`: the batch's
 * latest). `null` where the batch has no count of the kind. The same shape as a row.
 */
export type CounterDelta = CounterRow;

/** The change a batch makes to one row of one UTC day (`usage_days`, migration 10). */
export interface DayDelta {
  repo: string;
  entryId: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  user: string;
  shown: number;
  read: number;
}

/** Code point order (= UTF-8 byte order, SQLite's BINARY and PostgreSQL's "C"), not UTF-16's. */
function compareText(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(j) as number;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return i < a.length ? 1 : j < b.length ? -1 : 0;
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareText(a[i] as string, b[i] as string);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Folds a batch of counts into one change per counter row and one per day row, each list
 * sorted by its key in byte order (user, repo, entry id; repo, entry id, day, user). Writers
 * that apply the changes in that order take their row locks in one order, so two servers
 * writing batches at once never deadlock.
 *
 * @param batch - counts in the order they were counted.
 * @returns `counters` and `days`, sorted; the counts of each add up to the batch's.
 */
export function foldCounts(batch: readonly UsageCount[]): {
  counters: CounterDelta[];
  days: DayDelta[];
} {
  const counters = new Map<string, CounterDelta>();
  const days = new Map<string, DayDelta>();
  for (const c of batch) {
    const key = JSON.stringify([c.user, c.repo, c.entryId]);
    let row = counters.get(key);
    if (row === undefined) {
      row = {
        user: c.user,
        repo: c.repo,
        entryId: c.entryId,
        shown: 0,
        read: 0,
        firstShownAt: null,
        lastShownAt: null,
        firstReadAt: null,
        lastReadAt: null,
      };
      counters.set(key, row);
    }
    const day = dayOf(c.now);
    const dayKey = JSON.stringify([c.repo, c.entryId, day, c.user]);
    let dayRow = days.get(dayKey);
    if (dayRow === undefined) {
      dayRow = { repo: c.repo, entryId: c.entryId, day, user: c.user, shown: 0, read: 0 };
      days.set(dayKey, dayRow);
    }
    if (c.kind === "shown") {
      row.shown += 1;
      row.firstShownAt ??= c.now;
      row.lastShownAt = Math.max(row.lastShownAt ?? c.now, c.now);
      dayRow.shown += 1;
    } else {
      row.read += 1;
      row.firstReadAt ??= c.now;
      row.lastReadAt = Math.max(row.lastReadAt ?? c.now, c.now);
      dayRow.read += 1;
    }
  }
  return {
    counters: [...counters.values()].sort((a, b) =>
      compareKeys([a.user, a.repo, a.entryId], [b.user, b.repo, b.entryId]),
    ),
    days: [...days.values()].sort((a, b) =>
      compareKeys([a.repo, a.entryId, a.day, a.user], [b.repo, b.entryId, b.day, b.user]),
    ),
  };
}
