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

/** The part of a draft the client wrote: the field form's `title` or `body`, or the text form's `text`. */
export type DraftPart = "title" | "body" | "text";

const PART_NAMES: Record<DraftPart, { en: string; ru: string }> = {
  title: { en: "the title", ru: "заголовка" },
  body: { en: "the body", ru: "тела" },
  text: { en: "the text given", ru: "переданного текста" },
};

/**
 * The refusal of a draft that holds a credential, naming the line where the user can find
 * it: the line of the part they wrote (`title`, `body` or `text`) when the finding lies in
 * it, beside the line of the draft's file as it would be delivered (frontmatter included).
 * `data`: `{line, rule}` (the file's line, as {@link secretDetected}) plus, when located,
 * `part` and `part_line` (1-based).
 *
 * @param finding - the first finding in the draft's file.
 * @param file - the draft's future path (`.gitriver/knowledge/<id>.md`).
 * @param place - the part and its 1-based line holding it, when found there.
 * @returns the error to throw (`secret_detected`); the secret is never in it.
 */
export function draftSecretDetected(
  finding: SecretFinding,
  file: string,
  place: { part: DraftPart; line: number } | undefined,
): LoreError {
  const { line, rule } = finding;
  const tail = { en: "looks like a secret", ru: "похожа на секрет" };
  const where =
    place === undefined
      ? {
          en: `line ${line} of the draft's file ${file}`,
          ru: `строка ${line} файла черновика ${file}`,
        }
      : {
          en: `line ${place.line} of ${PART_NAMES[place.part].en} (line ${line} of the draft's file)`,
          ru: `строка ${place.line} ${PART_NAMES[place.part].ru} (строка ${line} файла черновика)`,
        };
  const data: Record<string, string | number> =
    place === undefined ? { line, rule } : { line, rule, part: place.part, part_line: place.line };
  return new LoreError("secret_detected", data, {
    data,
    text: {
      en: `refused: ${where.en} ${tail.en} (${rule}); remove it, nothing was written`,
      ru: `отказано: ${where.ru} ${tail.ru} (${rule}); уберите её, ничего не записано`,
    },
  });
}
