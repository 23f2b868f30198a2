/**
 * A count with its noun in English: `1 entry`, `2 entries`, `0 files`.
 *
 * @param n - the count.
 * @param one - the singular noun.
 * @param many - the plural noun.
 */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
