/**
 * The one text pipeline of matching: normalise, split, stem (recall).
 */
import { normalizeText } from "./normalize-text.js";
import { stemToken } from "./stem.js";
import { tokenize } from "./tokenize.js";

/**
 * Turns text into its stemmed tokens: `normalizeText`, then `tokenize`, then `stemToken`.
 * Both sides of matching use it: the index for summaries, bodies and contract words, the
 * recall for the query.
 *
 * @param text - any string.
 * @returns the stems in text order (possibly empty).
 */
export function analyzeText(text: string): string[] {
  const tokens = tokenize(normalizeText(text));
  for (let i = 0; i < tokens.length; i++) tokens[i] = stemToken(tokens[i] as string);
  return tokens;
}
