import type { DiagnosticCode, DiagnosticDetails } from "./diagnostic.js";

/**
 * Shared pieces of the field checks of `parseEntry` (seed 004, "Поля заголовка"): the
 * phrases of what each field must be, and how values appear in messages.
 */

/** Adds a diagnostic; a field check calls it for each problem it finds. */
export type Report = (code: DiagnosticCode, details: DiagnosticDetails) => void;

/** Extra advice appended to a message (`{hint}` / `{hint_ru}`), starting with ` — `. */
export type Hint = { hint: string; hint_ru: string };

/** The phrase an `invalid_field` message expects, in English and Russian. */
export type Phrase = { expected: string; expected_ru: string };

/** What each field must be, as `invalid_field` and `invalid_mechanism_params` say it. */
export const EXPECTED = {
  origin: { expected: "`human` or `agent`", expected_ru: "`human` или `agent`" },
  contract: {
    expected: "a list of clauses {mechanism, params}",
    expected_ru: "списком объявлений {mechanism, params}",
  },
  clause: {
    expected: "a mapping with “mechanism” and “params”",
    expected_ru: "набором с ключами «mechanism» и «params»",
  },
  clauseKey: {
    expected: "absent: a clause holds only “mechanism” and “params”",
    expected_ru: "убран: в объявлении бывают только «mechanism» и «params»",
  },
  mechanism: { expected: "a non-empty string", expected_ru: "непустой строкой" },
  params: { expected: "a mapping of parameters", expected_ru: "набором параметров" },
  links: {
    expected: "a list of entry ids (UUIDv7)",
    expected_ru: "списком идентификаторов записей (UUIDv7)",
  },
  summary: { expected: "a non-empty string", expected_ru: "непустой строкой" },
  words: {
    expected: "`params.words`: a non-empty list of non-empty strings",
    expected_ru: "`params.words` — непустой список непустых строк",
  },
  name: {
    expected: "`params.name`: a non-empty string",
    expected_ru: "`params.name` — непустая строка",
  },
} satisfies Record<string, Phrase>;

/** A hint that adds nothing to a message. */
export const NO_HINT: Hint = { hint: "", hint_ru: "" };

/**
 * Details of an `invalid_field` diagnostic.
 *
 * @param key - the field's path, e.g. `origin` or `contract[0].params`.
 * @param position - line and column.
 * @param phrase - what the field must be.
 * @param hint - extra advice appended to the message. Default: none.
 * @returns the details for `makeDiagnostic`.
 */
export function invalidField(
  key: string,
  position: DiagnosticDetails,
  phrase: Phrase,
  hint: Hint = NO_HINT,
): DiagnosticDetails {
  return { ...position, at: key, params: { key, ...phrase, ...hint } };
}

/** Tells whether a YAML value is a mapping (not a list, not a scalar). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value for a message: strings as written, others as JSON, at most 80 characters. */
export function show(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  const chars = Array.from(text.slice(0, 200));
  return chars.length > 80 ? `${chars.slice(0, 79).join("")}…` : chars.join("");
}

/** A control character found in a value (see {@link findControlCharacter}). */
export interface ControlCharacter {
  /** Its code point, e.g. `0x1b`. */
  code: number;
  /** Its position in the value, in characters (code points) from 1. */
  position: number;
}

/**
 * Finds the first control character a displayed value must not hold: C0 except TAB and
 * LF (U+0000–U+0008, U+000B–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). YAML escapes in
 * double quotes (`"\u0000"`, `"\u001b[31m"`, `"\x85"`) make them; printed raw they hide
 * text or drive the terminal.
 *
 * @param text - the value.
 * @returns the first one, or `undefined` when there is none.
 */
export function findControlCharacter(text: string): ControlCharacter | undefined {
  let position = 0;
  for (const char of text) {
    position += 1;
    const code = char.codePointAt(0) as number;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f)) {
      return { code, position };
    }
  }
  return undefined;
}

/**
 * The hint of a value refused for a control character, e.g. ` — item 1 holds the control
 * character U+001B (character 1), which a YAML escape such as "\u001b" makes; remove it`.
 *
 * @param found - the character (see {@link findControlCharacter}).
 * @param en - what holds it, in English (`it`, `item 2`).
 * @param ru - the same in Russian (`он`, `элемент 2`).
 */
export function controlHint(found: ControlCharacter, en: string, ru: string): Hint {
  const hex = found.code.toString(16).toUpperCase().padStart(4, "0");
  const yamlEscape = `"\\u${hex.toLowerCase()}"`;
  return {
    hint: ` — ${en} holds the control character U+${hex} (character ${found.position}), which a YAML escape such as ${yamlEscape} makes; remove it`,
    hint_ru: ` — ${ru} содержит управляющий символ U+${hex} (символ ${found.position}); его даёт экранирование YAML вроде ${yamlEscape} — уберите его`,
  };
}
