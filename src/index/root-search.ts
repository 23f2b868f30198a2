/**
 * Recall restricted to some repositories of the index — the notes of one knowledge root
 * (knowledge roots: recall's `knowledge_root_id` filter), one repository (`--repo`), or the
 * sources a caller of the team server may read (seed 004, "Интерфейс": every answer filtered
 * by the caller's rights). The set is applied in SQL, so no row, count or rank of another
 * repository is ever read. A root holds a person's or a team's notes (thousands, not the
 * 100k entries `text-search.ts` is tuned for), so this ranks every match of the set with
 * bm25 up to a cap, with plain prepared statements.
 */
import { occursIn } from "../core/recall/contract-match.js";
import type { QueryTerm } from "../core/recall/search-query.js";
import { type ContractInput, coveredTerms } from "./contract-lookup.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { SUMMARY_WEIGHT } from "./text-search.js";

/** A fired contract in one of the repositories. */
export interface RepoContractHit {
  fileId: number;
  entryId: string;
  /** `on_query` words that fired (sorted), then the `on_tool` name. */
  reasons: ({ kind: "on_query"; word: string } | { kind: "on_tool"; name: string })[];
  /** Bit *i* set: a fired word stands for query term *i* (see `ContractInput.keys`). */
  mask: number;
  /** Whether the `on_tool` name fired. */
  tool: boolean;
}

/** A text match in one of the repositories. */
export interface RepoTextHit {
  fileId: number;
  /** `-bm25`, ≥ 0. */
  relevance: number;
  /** Bit *i* set: the text holds query term *i*. */
  mask: number;
}

/** Lookups over the entries of a set of repositories; statements prepared once. */
export class RootSearch {
  readonly #sql;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    const p = (sql: string) => db.prepare(sql);
    this.#sql = {
      words: p(
        `SELECT w.file_id, w.entry_id, w.word, w.stems, w.first_stem FROM contract_words w JOIN files f USING (file_id)
         WHERE f.repo IN (SELECT value FROM json_each(?)) AND w.first_stem IN (SELECT value FROM json_each(?))`,
      ).raw(),
      tools: p(
        `SELECT t.file_id, t.entry_id FROM contract_tools t JOIN files f USING (file_id)
         WHERE f.repo IN (SELECT value FROM json_each(?)) AND t.name = ?`,
      ).raw(),
      text: p(
        `SELECT rowid, bm25(entry_text, ${SUMMARY_WEIGHT}.0, 1.0) AS bm25 FROM entry_text
         WHERE entry_text MATCH ? AND +rowid IN (SELECT file_id FROM files WHERE repo IN (SELECT value FROM json_each(?)))
         ORDER BY bm25, rowid LIMIT ?`,
      ).raw(),
      holding: p(
        `SELECT rowid FROM entry_text
         WHERE entry_text MATCH ? AND +rowid IN (SELECT file_id FROM files WHERE repo IN (SELECT value FROM json_each(?)))`,
      ).pluck(),
    };
  }

  /**
   * The entries of the repositories whose contract fires for the query's stems or the tool.
   *
   * @param repos - the repository names (`owner/name`, `root:<id>`, an identity); none = no hit.
   * @param input - the query's keys and stems and/or the tool name (as for `ContractLookup.fire`).
   */
  contracts(repos: readonly string[], input: ContractInput): RepoContractHit[] {
    const repo = JSON.stringify(repos);
    const hits = new Map<number, RepoContractHit>();
    const hit = (fileId: number, entryId: string) => {
      let found = hits.get(fileId);
      if (found === undefined) {
        found = { fileId, entryId, reasons: [], mask: 0, tool: false };
        hits.set(fileId, found);
      }
      return found;
    };
    const stems = input.stems ?? [];
    const termOf = new Map<string, number>();
    for (const [stem, term] of input.keys ?? []) if (!termOf.has(stem)) termOf.set(stem, term);
    if (stems.length > 0 || termOf.size > 0) {
      const lookup = JSON.stringify([...new Set([...stems, ...termOf.keys()])]);
      const rows = this.#sql.words.all(repo, lookup) as [
        number,
        string,
        string,
        string | null,
        string,
      ][];
      for (const [fileId, entryId, word, wordStems, first] of rows) {
        let term: number | undefined;
        if (wordStems === null) {
          term = termOf.get(first);
          if (term === undefined) continue;
        } else {
          const seq = wordStems.split(" ");
          if (!occursIn(stems, seq)) continue;
        }
        const found = hit(fileId, entryId);
        found.reasons.push({ kind: "on_query", word });
        if (term !== undefined) found.mask |= 1 << term;
        if (wordStems !== null) {
          for (const covered of coveredTerms(wordStems.split(" "), input.terms ?? [])) {
            found.mask |= 1 << covered;
          }
        }
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
        const found = hit(fileId, entryId);
        found.reasons.push({ kind: "on_tool", name: input.tool });
        found.tool = true;
      }
    }
    return [...hits.values()];
  }

  /**
   * Full-text matches in the repositories, best first (bm25, summary weighing {@link SUMMARY_WEIGHT}),
   * each with the query terms it holds. Stop words are already out of `terms`; the floor
   * on words found in over half of the entries (`TextSearch.matches`) is not applied here:
   * a root holds one person's or team's notes, a few thousand at most, all ranked.
   *
   * @param repos - the repository names; none = no match.
   * @param terms - the query's terms (OR).
   * @param cap - most rows.
   * @param masks - the bits of each term (default: bit *i* for term *i*).
   * @returns the matches, best first.
   */
  text(
    repos: readonly string[],
    terms: readonly QueryTerm[],
    cap: number,
    masks: readonly number[] = [],
  ): RepoTextHit[] {
    if (terms.length === 0 || repos.length === 0) return [];
    const repo = JSON.stringify(repos);
    const expr = terms.map((term) => term.fts).join(" OR ");
    const rows = this.#sql.text.all(expr, repo, cap) as [number, number][];
    const hits = new Map<number, RepoTextHit>(
      rows.map(([fileId, bm25]) => [fileId, { fileId, relevance: Math.max(0, -bm25), mask: 0 }]),
    );
    terms.forEach((term, i) => {
      for (const fileId of this.#sql.holding.all(term.fts, repo) as number[]) {
        const found = hits.get(fileId);
        if (found !== undefined) found.mask |= masks[i] ?? 1 << i;
      }
    });
    return [...hits.values()];
  }
}
