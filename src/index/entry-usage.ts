/**
 * The usage of a repository's entries (seed 004 "Интерфейс": `GET …/knowledge/stats/me`,
 * `…/stats/team`, `…/stats/dead`): each entry of the repository and of its drafts (source
 * `draft:<repo>`) with its shown/read counters, its age (`entry_ages`, migration 7) and its
 * reachability; and which ids of a batch are entries of the repository (`POST
 * …/knowledge/shown`). Reached as `EntryIndex.usage` / `EntryIndex.knownIds`.
 */
import type { UsageRecord } from "../core/stats/usage-record.js";
import type { UsageEntry } from "../core/stats/usage-sums.js";
import type { SqliteDatabase } from "./sqlite-database.js";

export type { UsageEntry, UsageRecord };

/** Options of {@link EntryUsage.entries}. */
export interface UsageEntryOptions {
  /** Only the entries holding one of these ids (compared exactly); absent: every entry. */
  ids?: readonly string[];
  /** Most entries read. */
  limit: number;
}

/** Options of {@link EntryUsage.usage}. */
export interface UsageOptions {
  /**
   * Whose counts: only the entries this user was shown or read, with the user's counts.
   * Absent: every entry, zeros included, with everyone's counts summed.
   */
  user?: string;
  /** Most records read (ask for one more than shown to tell whether the answer is cut). */
  limit: number;
}

type Row = {
  id: string;
  path: string;
  summary: string;
  shown: number;
  read: number;
  lastShownAt: number | null;
  lastReadAt: number | null;
  firstSeenAt: number | null;
  reachable: number;
  unmetMechanisms: string;
  isDraft: number;
  draftBranch: string | null;
};

/** The entry columns of both queries; `e`, `f`, `d`, `a` as joined below. */
const ENTRY_COLUMNS = `e.id, f.path, e.summary, e.reachable, e.unmet_mechanisms AS unmetMechanisms,
  f.repo <> @repo AS isDraft, d.branch AS draftBranch, a.first_seen_at AS firstSeenAt`;

/** The joins from `entries e` to the file, the draft row and the age. */
const ENTRY_JOINS = `JOIN files f USING (file_id)
  LEFT JOIN drafts d ON f.repo = 'draft:' || @repo AND d.repo = @repo AND d.id = e.id
  LEFT JOIN entry_ages a ON a.repo = @repo AND a.entry_id = e.id`;

/** The usage queries; statements prepared once. */
export class EntryUsage {
  readonly #team;
  readonly #mine;
  readonly #known;
  readonly #entries;

  /** @param db - an index database migrated to version 7 or later. */
  constructor(db: SqliteDatabase) {
    // Every entry of the repository and its drafts, by path (the listing's order), each
    // with everyone's counts summed: the page is cut first, then its counters are summed
    // (`counters_by_entry`, by repository and id: counts of another repository's entry
    // with the same id are never summed in), so a large repository costs the page, not every counter.
    this.#team = db.prepare(
      `SELECT p.*, coalesce(sum(c.shown), 0) AS shown, coalesce(sum(c.read), 0) AS read,
         max(c.last_shown_at) AS lastShownAt, max(c.last_read_at) AS lastReadAt
       FROM (SELECT ${ENTRY_COLUMNS}, f.repo AS source FROM entries e ${ENTRY_JOINS}
             WHERE f.repo IN (@repo, 'draft:' || @repo) ORDER BY f.path, f.repo LIMIT @limit) p
       LEFT JOIN counters c ON c.repo = @repo AND c.entry_id = p.id
       GROUP BY p.source, p.path ORDER BY p.path, p.source`,
    );
    // One user's: from the user's counters (primary key) to the entries of the repository.
    this.#mine = db.prepare(
      `SELECT ${ENTRY_COLUMNS}, c.shown, c.read, c.last_shown_at AS lastShownAt,
         c.last_read_at AS lastReadAt
       FROM counters c JOIN entries e ON e.id = c.entry_id ${ENTRY_JOINS}
       WHERE c.user = @user AND c.repo = @repo AND f.repo IN (@repo, 'draft:' || @repo)
       ORDER BY f.path, f.repo LIMIT @limit`,
    );
    // The entries alone, by path (the listing's order): the counts come from the counters'
    // store (`CounterStore.sums`), which may be another database.
    this.#entries = db.prepare(
      `SELECT ${ENTRY_COLUMNS} FROM entries e ${ENTRY_JOINS}
       WHERE f.repo IN (@repo, 'draft:' || @repo)
         AND (@ids IS NULL OR e.id IN (SELECT value FROM json_each(@ids)))
       ORDER BY f.path, f.repo LIMIT @limit`,
    );
    this.#known = db
      .prepare(
        `SELECT DISTINCT e.id FROM entries e JOIN files f USING (file_id)
         WHERE e.repo IN (@repo, 'draft:' || @repo) AND e.id IN (SELECT value FROM json_each(@ids))`,
      )
      .pluck();
  }

  /**
   * The entries of a repository and its drafts with their counters, ordered by path.
   *
   * @param repo - the index repository name (`owner/name` of a hosted repository).
   * @param options - see {@link UsageOptions}.
   * @param now - stands in for the age of an entry stored without one (written by a Lore
   *   older than migration 7 through another connection), ms since the epoch.
   */
  usage(repo: string, options: UsageOptions, now: number): UsageRecord[] {
    const limit = Math.max(0, Math.floor(options.limit));
    const rows = (
      options.user === undefined
        ? this.#team.all({ repo, limit })
        : this.#mine.all({ repo, limit, user: options.user })
    ) as Row[];
    return rows.map((row) => ({
      id: row.id,
      path: row.path,
      summary: row.summary,
      shown: row.shown,
      read: row.read,
      lastShownAt: row.lastShownAt,
      lastReadAt: row.lastReadAt,
      firstSeenAt: row.firstSeenAt ?? now,
      reachable: row.reachable === 1,
      unmetMechanisms: JSON.parse(row.unmetMechanisms) as string[],
      ...(row.isDraft === 1 ? { draftBranch: row.draftBranch ?? "" } : {}),
    }));
  }

  /**
   * The entries of a repository and its drafts without their counts, ordered by path then
   * source (the order of {@link usage}).
   *
   * @param repo - the index repository name.
   * @param options - see {@link UsageEntryOptions}.
   * @param now - stands in for a missing age, as in {@link usage}; ms since the epoch.
   */
  entries(repo: string, options: UsageEntryOptions, now: number): UsageEntry[] {
    const limit = Math.max(0, Math.floor(options.limit));
    const ids = options.ids === undefined ? null : JSON.stringify(options.ids);
    const rows = this.#entries.all({ repo, limit, ids }) as Omit<
      Row,
      "shown" | "read" | "lastShownAt" | "lastReadAt"
    >[];
    return rows.map((row) => ({
      id: row.id,
      path: row.path,
      summary: row.summary,
      firstSeenAt: row.firstSeenAt ?? now,
      reachable: row.reachable === 1,
      unmetMechanisms: JSON.parse(row.unmetMechanisms) as string[],
      ...(row.isDraft === 1 ? { draftBranch: row.draftBranch ?? "" } : {}),
    }));
  }

  /**
   * The ids of a batch held by entries (or drafts) of a repository.
   *
   * @param repo - the index repository name.
   * @param ids - entry ids as given.
   */
  knownIds(repo: string, ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set();
    return new Set(this.#known.all({ repo, ids: JSON.stringify(ids) }) as string[]);
  }
}
