/**
 * Which query words a full-text page ranks (recall "One scale", search's budget), the one
 * rule both engines apply — SQLite's `text-search.ts` and PostgreSQL's
 * `pg-text/pg-text-store.ts` — so that they rank the same words and give the same hits.
 */

/**
 * Sorts `words` by how many rows hold each (fewest first, in place: the caller's later
 * order is this one) and takes them from the rarest while their rows together stay within
 * `budget`.
 *
 * @param words - the query's words with their row counts; sorted in place.
 * @param budget - the most rows ranked, a count.
 * @returns the words ranked; empty when even the rarest holds more rows than the budget
 *   (the page is then a broad one over every word).
 */
export function wordsWithinBudget<T extends { count: number }>(words: T[], budget: number): T[] {
  words.sort((a, b) => a.count - b.count);
  const active: T[] = [];
  let sum = 0;
  for (const word of words) {
    if (sum + word.count > budget) break;
    active.push(word);
    sum += word.count;
  }
  return active;
}
