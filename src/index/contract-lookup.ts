/**
 * Contract recall through the lookup tables (issue 2, section 4; the rule is in
 * `core/contract-match.ts`): a few indexed lookups, whatever the number of entries.
 */
import { type MatchReason, occursIn } from "../core/contract-match.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** An entry whose contract fired, with every trigger that fired. */
export interface ContractHit {
  fileId: number;
  entryId: string;
  /** `on_query` words (sorted), then `on_tool` names. */
  reasons: MatchReason[];
}

/** Lookups of fired contracts; statements prepared once. */
export class ContractLookup {
  readonly #words;
  readonly #tools;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    this.#words = db
      .prepare(
        "SELECT file_id, entry_id, word, stems FROM contract_words WHERE first_stem IN (SELECT value FROM json_each(?))",
      )
      .raw();
    this.#tools = db.prepare("SELECT file_id, entry_id FROM contract_tools WHERE name = ?").raw();
  }

  /**
   * The reachable entries whose contract fires for a query's stems and a tool name
   * (only reachable entries are in the tables).
   *
   * @param input - `stems` of the query (`parseSearchQuery(q).stems`) and the tool name;
   *   either may be absent.
   * @returns the hits, in no particular order.
   */
  find(input: { stems?: readonly string[]; tool?: string }): ContractHit[] {
    const hits = new Map<number, ContractHit>();
    const hit = (fileId: number, entryId: string): ContractHit => {
      let found = hits.get(fileId);
      if (found === undefined) {
        found = { fileId, entryId, reasons: [] };
        hits.set(fileId, found);
      }
      return found;
    };
    const stems = input.stems ?? [];
    if (stems.length > 0) {
      const rows = this.#words.all(JSON.stringify([...new Set(stems)])) as [
        number,
        string,
        string,
        string,
      ][];
      for (const [fileId, entryId, word, wordStems] of rows) {
        if (wordStems.includes(" ") && !occursIn(stems, wordStems.split(" "))) continue;
        hit(fileId, entryId).reasons.push({ kind: "on_query", word });
      }
      for (const found of hits.values()) {
        found.reasons.sort((a, b) => {
          const wa = a.kind === "on_query" ? a.word : "";
          const wb = b.kind === "on_query" ? b.word : "";
          return wa < wb ? -1 : wa > wb ? 1 : 0;
        });
      }
    }
    if (input.tool !== undefined) {
      for (const [fileId, entryId] of this.#tools.all(input.tool) as [number, string][]) {
        hit(fileId, entryId).reasons.push({ kind: "on_tool", name: input.tool });
      }
    }
    return [...hits.values()];
  }
}
