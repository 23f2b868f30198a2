/**
 * Recall restricted to one repository of the index — the notes of one knowledge root
 * (issue 3: recall's `knowledge_root_id` filter). A root holds a person's or a team's
 * notes (thousands, not the 100k entries `text-search.ts` is tuned for), so this ranks every
 * match of the repository with bm25 up to a cap, with plain prepared statements.
 */
import { occursIn } from "../core/contract-match.js";
import type { QueryTerm } from "../core/search-query.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { SUMMARY_WEIGHT } from "./text-search.js";

/** A fired contract in the repository. */
export interface RepoContractHit {
  fileId: number;
  entryId: string;
  /** `on_query` words that fired (sorted), then the `on_tool` name. */
  reasons: ({ kind: "on_query"; word: string } | { kind: "on_tool"; name: string })[];
}

/** Lookups over one repository's entries; statements prepared once. */
export class RootSearch {
  readonly #sql;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      words: p(
        `SELECT w.file_id, w.entry_id, w.word, w.stems FROM contract_words w JOIN files f USING (file_id)
         WHERE f.repo = ? AND w.first_stem IN (SELECT value FROM json_each(?))`,
      ).raw(),
      tools: p(
        `SELECT t.file_id, t.entry_id FROM contract_tools t JOIN files f USING (file_id)
         WHERE f.repo = ? AND t.name = ?`,
      ).raw(),
      text: p(
        `SELECT rowid, bm25(entry_text, ${SUMMARY_WEIGHT}.0, 1.0) AS bm25 FROM entry_text
         WHERE entry_text MATCH ? AND rowid IN (SELECT file_id FROM files WHERE repo = ?)
         ORDER BY bm25, rowid LIMIT ?`,
      ).raw(),
    };
  }

  /**
   * The entries of `repo` whose contract fires for the query's stems or the tool.
   *
   * @param repo - the repository name (`root:<id>`).
   * @param input - query stems and/or tool name.
   */
  contracts(repo: string, input: { stems?: readonly string[]; tool?: string }): RepoContractHit[] {
    const hits = new Map<number, RepoContractHit>();
    const hit = (fileId: number, entryId: string) => {
      let found = hits.get(fileId);
      if (found === undefined) {
        found = { fileId, entryId, reasons: [] };
        hits.set(fileId, found);
      }
      return found;
    };
    const stems = input.stems ?? [];
    if (stems.length > 0) {
      const rows = this.#sql.words.all(repo, JSON.stringify([...new Set(stems)])) as [
        number,
        string,
        string,
        string | null,
      ][];
      for (const [fileId, entryId, word, wordStems] of rows) {
        if (wordStems?.includes(" ") && !occursIn(stems, wordStems.split(" "))) continue;
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
      for (const [fileId, entryId] of this.#sql.tools.all(repo, input.tool) as [number, string][]) {
        hit(fileId, entryId).reasons.push({ kind: "on_tool", name: input.tool });
      }
    }
    return [...hits.values()];
  }

  /**
   * Full-text matches in `repo`, best first (bm25, summary weighing {@link SUMMARY_WEIGHT}).
   *
   * @param repo - the repository name.
   * @param terms - the query's terms (OR).
   * @param cap - most rows.
   * @returns `[fileId, score]` pairs, score = `-bm25` rounded to 4 significant digits.
   */
  text(repo: string, terms: readonly QueryTerm[], cap: number): [number, number][] {
    if (terms.length === 0) return [];
    const expr = terms.map((term) => term.fts).join(" OR ");
    const rows = this.#sql.text.all(expr, repo, cap) as [number, number][];
    return rows.map(([fileId, bm25]) => [fileId, Number((-bm25).toPrecision(4))]);
  }
}
