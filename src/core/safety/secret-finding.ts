import { LoreError } from "../errors/lore-error.js";

/**
 * One credential found in a text by the secret guard (seed 004, "Как знание выходит
 * наружу": agent-written memory must not carry credentials). It says where and which rule
 * fired — never the secret's text, so a finding can be logged, printed and sent back to
 * the model that wrote it.
 */
export interface SecretFinding {
  /** 1-based line of the text the rule fired on (the line where the match starts). */
  line: number;
  /**
   * The rule's id: a secretlint rule such as `@secretlint/secretlint-rule-github`, or one of
   * Lore's own (`lore/high-entropy-assignment`, `lore/stripe-key`).
   */
  rule: string;
}

/**
 * The refusal of a write that holds a credential: `secret_detected` (400 / exit 2) with
 * params and `data` `{line, rule}` of the first finding — the secret itself is never put in
 * the message or the data.
 *
 * @param finding - the first finding (in line order).
 * @returns the error to throw; nothing has been written when it is thrown.
 */
export function secretDetected(finding: SecretFinding): LoreError {
  const data = { line: finding.line, rule: finding.rule };
  return new LoreError("secret_detected", data, { data });
}

/**
 * The 1-based line of a UTF-16 offset in `text` (`\n` ends a line; a `\r\n` pair counts
 * once).
 *
 * @param text - the whole text.
 * @param index - a UTF-16 code unit offset, 0 ≤ index ≤ text.length.
 */
export function lineOfIndex(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) {
    line++;
  }
  return line;
}
