/**
 * Contract recall through the lookup tables (the rule is in `core/recall/contract-match.ts`): a
 * few indexed lookups, whatever the number of entries.
 *
 * A recall first collects the entries whose contract fires, each with the query words its
 * contract covers (a bit mask over the query's terms) and whether its `on_tool` fired. Only
 * file ids cross from SQLite (one indexed range per query word, no grouping or sorting in
 * SQL, no temporary table: an aggregate over thousands of fired rows cost ~1 µs a row);
 * their union is kept in memory until the next lookup. The page then asks for the best of
 * them: entry ids are read only for the entries that can be on the page, and the one group
 * of equal rank that crosses the page boundary is ordered by entry id by a limited query.
 */
import { type MatchReason, occursIn } from "../core/recall/contract-match.js";
import { countBits } from "../core/recall/recall-score.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** A fired entry without its id: its file, covered query terms (bit mask), whether the tool fired. */
export type FiredMatch = Omit<ContractHit, "entryId">;

/** A fired entry: its file, id, covered query terms (bit mask) and whether the tool fired. */
export interface ContractHit {
  fileId: number;
  entryId: string;
  /** Bit *i* set: the entry's contract covers query term *i*. */
  mask: number;
  /** Its `on_tool` name is the tool asked. */
  tool: boolean;
  /** Covered terms, plus 1 when the tool fired. */
  matched: number;
}

/** What a contract lookup matches: a query's stems and a tool name, either may be absent. */
export interface ContractInput {
  /**
   * The one-token words to look up, each with the index of the query term it stands for
   * (`parseSearchQuery(q).keys` with their term: stop words left out).
   */
  keys?: readonly (readonly [stem: string, term: number])[];
  /** Every stem of the query in order, stop words included: what phrases are matched against. */
  stems?: readonly string[];
  /**
   * The stems of each query term (`parseSearchQuery(q).terms[i].stems`): a fired phrase
   * covers each term whose stems it holds.
   */
  terms?: readonly (readonly string[])[];
  /** The name of the tool about to be called. */
  tool?: string;
}

/**
 * Up to this many files of a group are read by primary key; a larger group that crosses the
 * page is cut by reading the entry id index in order (which scans about
 * `limit × entries ÷ group` index rows). Either gives the same entries.
 */
const DIRECT_READS = 128;

/** Most lookups {@link ContractLookup} keeps (see `#kept`); past it the oldest is forgotten. */
export const KEPT_LOOKUPS = 64;

/** What one {@link ContractLookup.fire} collected (never changed once made, but for its kept `levels`). */
interface Fired {
  masks: Map<number, number>;
  tools: Set<number>;
  known: Map<number, string>;
  /**
   * The fired file ids grouped by terms covered, most first; made by the first
   * {@link ContractLookup.best} of this lookup and kept with it (a kept lookup ranks the
   * same way every time).
   */
  levels?: readonly Level[];
}

/** Fired entries that cover the same number of terms (`matched`, the tool counting one). */
interface Level {
  matched: number;
  files: number[];
}

/** Lookups of fired contracts; statements prepared once. */
export class ContractLookup {
  readonly #sql;
  /** The last {@link fire}: fired file id → bit mask of covered terms. */
  #masks = new Map<number, number>();
  /** The last {@link fire}: fired file ids whose `on_tool` fired. */
  #tools = new Set<number>();
  /** The last {@link fire}: entry ids already known (from fired phrases). */
  #known = new Map<number, string>();
  /** The last {@link fire}'s whole lookup (where its levels are kept). */
  #fired: Fired | undefined;
  readonly #db: SqliteDatabase;
  /**
   * Input (and repositories) → what its lookup collected, valid while nothing in the file
   * changed since {@link #keptAt}: no row written by this connection (`total_changes()`)
   * and no commit of another (`data_version`). A tool's name or a prompt's words recalled
   * again (an agent hook recalls before every tool call) collect the same fired entries
   * without reading them again.
   */
  #kept = new Map<string, Fired>();
  #keptAt = "";

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    this.#db = db;
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      changes: p("SELECT total_changes(), data_version FROM pragma_data_version").raw(),
      phrases: p(
        `SELECT file_id, entry_id, stems FROM contract_words
         WHERE first_stem IN (SELECT value FROM json_each(@stems)) AND stems IS NOT NULL`,
      ).raw(),
      // The primary key (first_stem, file_id, word) serves it as one range.
      keyFiles: p(
        "SELECT file_id FROM contract_words WHERE first_stem = ? AND stems IS NULL",
      ).pluck(),
      toolFiles: p("SELECT file_id FROM contract_tools WHERE name = ?").pluck(),
      entryIds: p(
        "SELECT file_id, id FROM entries WHERE file_id IN (SELECT value FROM json_each(?))",
      ).raw(),
      // The smallest entry ids among some files: the id index read in order, stopping at
      // `limit` members (`+` keeps the planner off the primary key, one probe per file).
      firstIds: p(
        `SELECT file_id, id FROM entries INDEXED BY entries_by_id
         WHERE +file_id IN (SELECT value FROM json_each(@files)) ORDER BY id LIMIT @limit`,
      ).raw(),
      words: p(
        `SELECT file_id, word, stems, first_stem FROM contract_words
         WHERE file_id IN (SELECT value FROM json_each(@files))
           AND first_stem IN (SELECT value FROM json_each(@stems))
         ORDER BY file_id, word`,
      ).raw(),
      tools: p(
        `SELECT file_id FROM contract_tools
         WHERE file_id IN (SELECT value FROM json_each(@files)) AND name = @tool`,
      ).pluck(),
      inRepos: p(
        `SELECT file_id FROM files
         WHERE file_id IN (SELECT value FROM json_each(@files)) AND repo IN (SELECT value FROM json_each(@repos))`,
      ).pluck(),
    };
  }

  /**
   * Collects the reachable entries whose contract fires (only reachable entries are in the
   * lookup tables), replacing the previous lookup's. The same input again, with nothing
   * changed in the file meanwhile, takes the kept lookup (see `#kept`): the same entries.
   *
   * @param input - the query's keys and stems, and the tool name.
   * @param repos - when given, only the entries of these index repositories are kept
   *   (`owner/name`, `root:<id>`, `draft:<repo>`, an identity; none = no entry).
   * @returns the number of fired entries.
   */
  fire(input: ContractInput, repos?: readonly string[]): number {
    // Inside a write transaction of this connection nothing is kept or reused.
    const keep = !this.#db.inTransaction;
    let key = "";
    if (keep) {
      const [changes, version] = this.#sql.changes.get() as [number, number];
      const at = `${changes}:${version}`;
      if (at !== this.#keptAt) {
        this.#kept.clear();
        this.#keptAt = at;
      }
      key = JSON.stringify([input.keys, input.stems, input.terms, input.tool, repos]);
      const kept = this.#kept.get(key);
      if (kept !== undefined) return this.#use(kept);
    }
    const fired = this.#collect(input, repos);
    if (keep) {
      if (this.#kept.size >= KEPT_LOOKUPS) {
        const oldest = this.#kept.keys().next();
        if (oldest.done !== true) this.#kept.delete(oldest.value);
      }
      this.#kept.set(key, fired);
    }
    return this.#use(fired);
  }

  #use(fired: Fired): number {
    this.#fired = fired;
    this.#masks = fired.masks;
    this.#tools = fired.tools;
    this.#known = fired.known;
    return fired.masks.size;
  }

  /** The lookup of {@link fire}, read from the tables. */
  #collect(input: ContractInput, repos?: readonly string[]): Fired {
    const masks = new Map<number, number>();
    const known = new Map<number, string>();
    const tools = new Set<number>();
    const bits = new Map<string, number>();
    for (const [stem, term] of input.keys ?? [])
      bits.set(stem, (bits.get(stem) ?? 0) | (1 << term));
    for (const [stem, bit] of bits) {
      for (const fileId of this.#sql.keyFiles.all(stem) as number[]) {
        masks.set(fileId, (masks.get(fileId) ?? 0) | bit);
      }
    }
    const stems = input.stems ?? [];
    if (stems.length > 0) {
      const rows = this.#sql.phrases.all({ stems: JSON.stringify([...new Set(stems)]) }) as [
        number,
        string,
        string,
      ][];
      for (const [fileId, entryId, seq] of rows) {
        const words = seq.split(" ");
        if (!occursIn(stems, words)) continue;
        let mask = masks.get(fileId) ?? 0;
        for (const term of coveredTerms(words, input.terms ?? [])) mask |= 1 << term;
        masks.set(fileId, mask);
        known.set(fileId, entryId);
      }
    }
    const tool = input.tool ?? null;
    if (tool !== null) {
      for (const fileId of this.#sql.toolFiles.all(tool) as number[]) {
        tools.add(fileId);
        if (!masks.has(fileId)) masks.set(fileId, 0);
      }
    }
    if (repos !== undefined && masks.size > 0) {
      const kept = new Set(
        this.#sql.inRepos.all({
          files: JSON.stringify([...masks.keys()]),
          repos: JSON.stringify(repos),
        }) as number[],
      );
      for (const fileId of masks.keys()) if (!kept.has(fileId)) masks.delete(fileId);
    }
    return { masks, tools, known };
  }

  /** The file ids of the entries of the last {@link fire}, in no order. */
  firedFileIds(): number[] {
    return [...this.#masks.keys()];
  }

  /**
   * The best fired entries of the last {@link fire} that are not in `skip`: most covered
   * terms first (`matched`), then by entry id.
   *
   * Cost: one pass over the fired file ids (integers) to rank them; entry ids are read for
   * at most `limit` entries, plus one limited query for the group of equal rank that
   * crosses `limit`.
   *
   * @param limit - entries to return at most.
   * @param skip - file ids to leave out (those ranked with the text matches).
   */
  best(limit: number, skip: readonly number[]): ContractHit[] {
    if (limit <= 0 || this.#masks.size === 0) return [];
    const levels = this.#levels();
    // Only the skipped entries that fired matter: usually far fewer than the text matches.
    const skipped = new Set<number>();
    for (const fileId of skip) if (this.#masks.has(fileId)) skipped.add(fileId);
    const out: ContractHit[] = [];
    for (const level of levels) {
      const files =
        skipped.size === 0 ? level.files : level.files.filter((fileId) => !skipped.has(fileId));
      if (files.length === 0) continue;
      const room = limit - out.length;
      // A group that fits, or a small one, is read by primary key; a large one that crosses
      // `limit` is cut by the id index (same order, fewer row reads).
      const ids =
        files.length <= room || files.length <= DIRECT_READS
          ? this.#entryIds(files)
          : this.#firstIds(files, room);
      const ordered = [...ids].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [fileId, entryId] of ordered.slice(0, room)) out.push(this.#hit(fileId, entryId));
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The last {@link fire}'s levels, most terms covered first (made once per lookup). */
  #levels(): readonly Level[] {
    const fired = this.#fired;
    if (fired?.levels !== undefined) return fired.levels;
    const byMatched = new Map<number, number[]>();
    this.#masks.forEach((mask, fileId) => {
      const matched = countBits(mask) + (this.#tools.has(fileId) ? 1 : 0);
      const files = byMatched.get(matched);
      if (files === undefined) byMatched.set(matched, [fileId]);
      else files.push(fileId);
    });
    const levels = [...byMatched]
      .sort(([a], [b]) => b - a)
      .map(([matched, files]) => ({ matched, files }));
    if (fired !== undefined) fired.levels = levels;
    return levels;
  }

  /**
   * The fired entries of the last {@link fire} among some files (entry ids left out: a
   * caller that needs them for ties reads them).
   *
   * @param fileIds - file ids (text matches).
   * @returns file id → its fired match (files whose contract did not fire are absent).
   */
  of(fileIds: readonly number[]): Map<number, FiredMatch> {
    const out = new Map<number, FiredMatch>();
    for (const fileId of fileIds) {
      const mask = this.#masks.get(fileId);
      if (mask === undefined) continue;
      const tool = this.#tools.has(fileId);
      out.set(fileId, { fileId, mask, tool, matched: countBits(mask) + (tool ? 1 : 0) });
    }
    return out;
  }

  #hit(fileId: number, entryId: string): ContractHit {
    const mask = this.#masks.get(fileId) ?? 0;
    const tool = this.#tools.has(fileId);
    return { fileId, entryId, mask, tool, matched: countBits(mask) + (tool ? 1 : 0) };
  }

  /** The entry ids of a few files (known ones from memory, the others by primary key). */
  #entryIds(files: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    const unknown: number[] = [];
    for (const fileId of files) {
      const id = this.#known.get(fileId);
      if (id === undefined) unknown.push(fileId);
      else out.set(fileId, id);
    }
    if (unknown.length > 0) {
      for (const [fileId, id] of this.#sql.entryIds.all(JSON.stringify(unknown)) as [
        number,
        string,
      ][])
        out.set(fileId, id);
    }
    return out;
  }

  /**
   * The `limit` files of a group with the smallest entry ids, with their ids: one limited
   * read of the entry id index in order.
   */
  #firstIds(files: readonly number[], limit: number): Map<number, string> {
    const rows = this.#sql.firstIds.all({ files: JSON.stringify(files), limit }) as [
      number,
      string,
    ][];
    return new Map(rows);
  }

  /**
   * Why each of some fired entries fired: its `on_query` words (sorted) then its `on_tool`
   * name.
   *
   * @param fileIds - fired entries.
   * @param input - the same input as the {@link fire} call.
   * @returns file id → reasons.
   */
  reasons(fileIds: readonly number[], input: ContractInput): Map<number, MatchReason[]> {
    const out = new Map<number, MatchReason[]>(fileIds.map((id) => [id, []]));
    if (fileIds.length === 0) return out;
    const files = JSON.stringify(fileIds);
    const stems = input.stems ?? [];
    const keys = new Set((input.keys ?? []).map(([stem]) => stem));
    if (stems.length > 0 || keys.size > 0) {
      const lookup = JSON.stringify([...new Set([...stems, ...keys])]);
      for (const [fileId, word, seq, first] of this.#sql.words.all({ files, stems: lookup }) as [
        number,
        string,
        string | null,
        string,
      ][]) {
        const fired = seq === null ? keys.has(first) : occursIn(stems, seq.split(" "));
        if (fired) out.get(fileId)?.push({ kind: "on_query", word });
      }
    }
    if (input.tool !== undefined) {
      for (const fileId of this.#sql.tools.all({ files, tool: input.tool }) as number[]) {
        out.get(fileId)?.push({ kind: "on_tool", name: input.tool });
      }
    }
    return out;
  }
}

/**
 * The query terms a fired phrase covers: those all of whose stems it holds.
 *
 * @param phrase - the contract word's stems.
 * @param terms - the stems of each query term.
 * @returns the term indices, ascending.
 */
export function coveredTerms(
  phrase: readonly string[],
  terms: readonly (readonly string[])[],
): number[] {
  const out: number[] = [];
  terms.forEach((stems, i) => {
    if (stems.length > 0 && stems.every((stem) => phrase.includes(stem))) out.push(i);
  });
  return out;
}
