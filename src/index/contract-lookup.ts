/**
 * Contract recall through the lookup tables (issue 2, section 4; the rule is in
 * `core/contract-match.ts`): a few indexed lookups, whatever the number of entries.
 *
 * A recall first collects the entries whose contract fires into the connection's temporary
 * table `fired_entries` (in SQLite, nothing crosses into JavaScript), so that paging them
 * and leaving them out of the full-text matches are indexed lookups too.
 */
import { type MatchReason, occursIn } from "../core/contract-match.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/**
 * The temporary table of the last contract lookup (per connection, in memory): each fired
 * entry with the number of its triggers that fired.
 */
export const FIRED_ENTRIES_TABLE = `
CREATE TEMP TABLE IF NOT EXISTS fired_entries (
  file_id  INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL,
  fired    INTEGER NOT NULL
)`;

/** A fired entry on a page: its file, id and the number of triggers that fired. */
export interface ContractHit {
  fileId: number;
  entryId: string;
  fired: number;
}

/** What a contract lookup matches: a query's stems and a tool name, either may be absent. */
export interface ContractInput {
  /** The query's stems in order (`parseSearchQuery(q).stems`). */
  stems?: readonly string[];
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
        `INSERT INTO temp.fired_entries (file_id, entry_id, fired)
         SELECT file_id, min(entry_id), count(*) FROM (
           SELECT file_id, entry_id FROM contract_words
           WHERE first_stem IN (SELECT value FROM json_each(@stems)) AND stems IS NULL
           UNION ALL
           SELECT value ->> 0, value ->> 1 FROM json_each(@phrases)
           UNION ALL
           SELECT file_id, entry_id FROM contract_tools WHERE name = @tool
         ) GROUP BY file_id`,
      ),
      page: p(
        `SELECT file_id AS fileId, entry_id AS entryId, fired FROM temp.fired_entries
         ORDER BY fired DESC, entry_id LIMIT @limit OFFSET @offset`,
      ),
      words: p(
        `SELECT file_id, word, stems FROM contract_words
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
   * @param input - the query's stems and the tool name.
   * @returns the number of fired entries.
   */
  fire(input: ContractInput): number {
    this.#sql.clear.run();
    const stems = JSON.stringify([...new Set(input.stems ?? [])]);
    const phrases: [number, string][] = [];
    if (input.stems !== undefined && input.stems.length > 0) {
      for (const [fileId, entryId, seq] of this.#sql.phrases.all({ stems }) as [
        number,
        string,
        string,
      ][]) {
        if (occursIn(input.stems, seq.split(" "))) phrases.push([fileId, entryId]);
      }
    }
    const result = this.#sql.fill.run({
      stems,
      phrases: JSON.stringify(phrases),
      tool: input.tool ?? null,
    });
    return result.changes;
  }

  /**
   * A page of the fired entries of the last {@link fire}: most fired triggers first, then by
   * entry id.
   *
   * @param offset - entries to skip.
   * @param limit - entries to return at most.
   */
  page(offset: number, limit: number): ContractHit[] {
    if (limit <= 0) return [];
    return this.#sql.page.all({ offset, limit }) as ContractHit[];
  }

  /**
   * Why each of some fired entries fired: its `on_query` words (sorted) then its `on_tool`
   * name.
   *
   * @param fileIds - entries from {@link page}.
   * @param input - the same input as the {@link fire} call.
   * @returns file id → reasons.
   */
  reasons(fileIds: readonly number[], input: ContractInput): Map<number, MatchReason[]> {
    const out = new Map<number, MatchReason[]>(fileIds.map((id) => [id, []]));
    if (fileIds.length === 0) return out;
    const files = JSON.stringify(fileIds);
    if (input.stems !== undefined && input.stems.length > 0) {
      const stems = JSON.stringify([...new Set(input.stems)]);
      for (const [fileId, word, seq] of this.#sql.words.all({ files, stems }) as [
        number,
        string,
        string | null,
      ][]) {
        if (seq === null || occursIn(input.stems, seq.split(" "))) {
          out.get(fileId)?.push({ kind: "on_query", word });
        }
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
