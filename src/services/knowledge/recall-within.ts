/**
 * Recall restricted to a set of the index's sources, the set applied in SQL: one repository
 * (`lore recall --repo`), one knowledge root's notes (`knowledge_root_id`), or — on the team
 * server — the sources the caller may read (seed 004, "Интерфейс": «Права — knowledge:read
 * …»; every answer filtered per repository by the caller's rights, nothing of a repository
 * the caller cannot read leaks: no entry, no count).
 */
import type { EntryIndex } from "../../index/entry-index.js";
import { recordReceipt } from "../receipts/record-receipt.js";
import { countShown, type HitPage } from "./hit-page.js";
import { type RecallInput, rankedPage } from "./recall.js";

/**
 * Recall over the entries of some sources: `recall`'s own path with a repository filter
 * (`rankedPage`), so the same query answers the same hits in the same order with the same
 * scores as an unfiltered recall whose hits are then filtered to those sources — stop words,
 * the floor on common words and the ranking included; the same page shape, cursor and byte
 * budget. Only rows of `repos` are read (the set is a SQL condition), so hits, `total` and
 * pages never include another source's. Hits of a knowledge root carry `root`. The listed
 * entries are counted as shown to `input.user`, and a load receipt is recorded
 * (`services/receipts/record-receipt.ts`).
 *
 * @param index - the index.
 * @param input - as for `recall`, plus `repos`: the index repository names (`owner/name` of a
 *   hosted repository, `root:<id>`, `draft:<repo>`, an identity); an empty set answers no hit.
 * @returns `{hits, total, total_exact, next_cursor}`.
 * @throws LoreError `empty_query`, `invalid_limit`, `invalid_cursor`.
 */
export function recallWithin(
  index: EntryIndex,
  input: RecallInput & { repos: readonly string[] },
): HitPage {
  const { repos, ...rest } = input;
  const answer = rankedPage(index, rest, [...new Set(repos)].sort());
  recordReceipt(index, rest, answer);
  return countShown(index, rest, answer);
}
