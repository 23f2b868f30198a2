/**
 * Suggestions for unknown keys (seed 004, "Строго на запись, терпимо на чтение": an unknown
 * key is named with the nearest known one, or "похожих нет" — the file is newer than the
 * server).
 */

/**
 * Names other tools use for Lore's keys, mapped to the Lore key a user most likely meant.
 * The seed's own example: `on_trigers` → `contract`.
 */
export const KEY_ALIASES: Readonly<Record<string, string>> = {
  on_triggers: "contract",
  on_trigger: "contract",
  triggers: "contract",
  trigger: "contract",
  related: "links",
  see_also: "links",
  description: "summary",
  uuid: "id",
  keywords: "words",
  tool: "name",
};

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), over code
 * points. O(|a|·|b|) time, O(|b|) memory.
 *
 * @param a - first string.
 * @param b - second string.
 * @returns the number of single-character edits from `a` to `b`.
 */
export function editDistance(a: string, b: string): number {
  const s = Array.from(a);
  const t = Array.from(b);
  let prevPrev: number[] = [];
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        best = Math.min(best, (prevPrev[j - 2] as number) + 1);
      }
      row.push(best);
    }
    prevPrev = prev;
    prev = row;
  }
  return prev[t.length] as number;
}

/**
 * Finds the known key an unknown one most likely meant. Keys compare case-insensitively
 * with `-` read as `_` (so `Links` → `links`, `on-query` → `on_query`), against the known
 * keys and the {@link KEY_ALIASES} that point at one of them. A candidate counts only when
 * the distance is at most `max(1, ⌊longer length / 3⌋)`; ties go to the earlier known key.
 * A key over 64 characters has no suggestion (and costs nothing to check).
 *
 * @param key - the unknown key as written.
 * @param known - the keys that are known here, in preference order.
 * @returns the suggested known key, or `undefined` when none is similar.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > 64) return undefined;
  const wanted = fold(key);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const consider = (candidate: string, target: string) => {
    const folded = fold(candidate);
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, folded.length) / 3));
    const distance = editDistance(wanted, folded);
    if (distance <= limit && distance < bestDistance) {
      best = target;
      bestDistance = distance;
    }
  };
  for (const candidate of known) consider(candidate, candidate);
  for (const [alias, target] of Object.entries(KEY_ALIASES)) {
    if (known.includes(target)) consider(alias, target);
  }
  return best;
}

function fold(key: string): string {
  return key.toLowerCase().replace(/-/g, "_");
}
