/**
 * Contract recall through the lookup tables (the rule is in `core/contract-match.ts`): a
 * few indexed lookups, whatever the number of entries.
 *
 * A recall first collects the entries whose contract fires into the connection's temporary
 * table `fired_entries`, each with the query words its contract covers (a bit mask over
 * the query's terms, and their count), all in SQLite: nothing per fired entry crosses into
 * JavaScript, so a word that fires thousands of contracts costs one aggregate query. The
 * page then reads the best of them by an indexed, limited query.
 */
import { type MatchReason, occursIn } from "../core/contract-match.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * The temporary table of the last contract lookup (per connection, in memory): each fired
 * entry, the bit mask of the query terms its `on_query` words cover (bit *i* = term *i*),
 * whether its `on_tool` fired, and `matched` = terms covered + 1 when the tool fired.
 */
export const FIRED_ENTRIES_TABLE = `
DROP TABLE IF EXISTS temp.fired_entries;
CREATE TEMP TABLE fired_entries (
  file_id  INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL,
  mask     INTEGER NOT NULL,
  tool     INTEGER NOT NULL,
  matched  INTEGER NOT NULL
);
CREATE INDEX temp.fired_entries_order ON fired_entries (matched DESC, entry_id);`;

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

/** Lookups of fired contracts; statements prepared once. */
export class ContractLookup {
  readonly #sql;

  /** @param db - a migrated index database with {@link FIRED_ENTRIES_TABLE} created. */
  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      clear: p("DELETE FROM temp.fired_entries"),
      phrases: p(
        `SELECT file_id, entry_id, stems FROM contract_words
         WHERE first_stem IN (SELECT value FROM json_each(@stems)) AND stems IS NOT NULL`,
      ).raw(),
      fill: p(
        `INSERT INTO temp.fired_entries (file_id, entry_id, mask, tool, matched)
         SELECT file_id, min(entry_id), coalesce(sum(DISTINCT bit), 0), max(tool),
                count(DISTINCT term) + max(tool) FROM (
           SELECT w.file_id, w.entry_id, k.value ->> 1 AS term, 1 << (k.value ->> 1) AS bit, 0 AS tool
           FROM json_each(@keys) k
           JOIN contract_words w ON w.first_stem = k.value ->> 0 AND w.stems IS NULL
           UNION ALL
           SELECT value ->> 0, value ->> 1, value ->> 2, 1 << (value ->> 2), 0 FROM json_each(@phrases)
           UNION ALL
           SELECT file_id, entry_id, NULL, NULL, 1 FROM contract_tools WHERE name = @tool
         ) GROUP BY file_id`,
      ),
      best: p(
        `SELECT file_id, entry_id, mask, tool, matched FROM temp.fired_entries
         WHERE file_id NOT IN (SELECT value FROM json_each(@skip))
         ORDER BY matched DESC, entry_id LIMIT @limit`,
      ).raw(),
      of: p(
        `SELECT file_id, entry_id, mask, tool, matched FROM temp.fired_entries
         WHERE file_id IN (SELECT value FROM json_each(@files))`,
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
    };
  }

  /**
   * Collects the reachable entries whose contract fires (only reachable entries are in the
   * lookup tables) into `fired_entries`, replacing the previous lookup's.
   *
   * @param input - the query's keys and stems, and the tool name.
   * @returns the number of fired entries.
   */
  fire(input: ContractInput): number {
    this.#sql.clear.run();
    const keys = input.keys ?? [];
    const stems = input.stems ?? [];
    const phrases: [number, string, number | null][] = [];
    if (stems.length > 0) {
      const rows = this.#sql.phrases.all({ stems: JSON.stringify([...new Set(stems)]) }) as [
        number,
        string,
        string,
      ][];
      for (const [fileId, entryId, seq] of rows) {
        const words = seq.split(" ");
        if (!occursIn(stems, words)) continue;
        const covered = coveredTerms(words, input.terms ?? []);
        if (covered.length === 0) phrases.push([fileId, entryId, null]);
        for (const term of covered) phrases.push([fileId, entryId, term]);
      }
    }
    const result = this.#sql.fill.run({
      keys: JSON.stringify(keys),
      phrases: JSON.stringify(phrases),
      tool: input.tool ?? null,
    });
    return result.changes;
  }

  /**
   * The best fired entries of the last {@link fire} that are not in `skip`: most covered
   * terms first (`matched`), then by entry id.
   *
   * @param limit - entries to return at most.
   * @param skip - file ids to leave out (those ranked with the text matches).
   */
  best(limit: number, skip: readonly number[]): ContractHit[] {
    if (limit <= 0) return [];
    const rows = this.#sql.best.all({ limit, skip: JSON.stringify(skip) }) as Row[];
    return rows.map(toHit);
  }

  /**
   * The fired entries of the last {@link fire} among some files.
   *
   * @param fileIds - file ids (text matches).
   * @returns file id → its contract hit (files whose contract did not fire are absent).
   */
  of(fileIds: readonly number[]): Map<number, ContractHit> {
    const out = new Map<number, ContractHit>();
    if (fileIds.length === 0) return out;
    for (const row of this.#sql.of.all({ files: JSON.stringify(fileIds) }) as Row[]) {
      out.set(row[0], toHit(row));
    }
    return out;
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

type Row = [number, string, number, number, number];

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

function toHit([fileId, entryId, mask, tool, matched]: Row): ContractHit {
  return { fileId, entryId, mask: mask | 0, tool: tool === 1, matched };
}
