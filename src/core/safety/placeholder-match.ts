/**
 * Whether a rule's match is a placeholder rather than a credential: `ghp_xxxxxxxx…`,
 * `sk-…`, `AKIA****************`, a value with eight or more of one character in a row.
 * secretlint's rules check a token's shape (prefix, length, alphabet), and a shape filled
 * with `x` passes them; a random token almost never holds such a run. Only short matches
 * (at most 256 characters, i.e. tokens, not PEM blocks or whole JSON files, which the
 * preset filters itself) are judged.
 *
 * @param matched - the text a rule matched.
 * @returns true when the match should not count as a finding.
 */
export function isPlaceholderMatch(matched: string): boolean {
  if (matched.length > 256) return false;
  return /x{4,}|X{4,}|\*{3,}|\.{3}|…|(.)\1{7,}/.test(matched);
}
