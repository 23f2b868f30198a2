/**
 * Shannon entropy of a string in bits per character, over its UTF-16 code units:
 * −Σ p·log₂ p of the characters' frequencies. `""` → 0; `"aaaa"` → 0; 16 distinct
 * characters once each → 4; a random 40-character base64 secret ≈ 4.5–5; an English word
 * ≈ 2.5–3. The secret guard uses it to tell a generated credential from a word
 * (see `high-entropy-assignment.ts`).
 *
 * @param text - any string.
 * @returns bits per character, 0 ≤ result ≤ log₂(text.length).
 */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  const total = [...text].length;
  for (const count of counts.values()) {
    const p = count / total;
    bits -= p * Math.log2(p);
  }
  return bits;
}
