import { fillTemplate, type Lang, type LocalizedText } from "../errors/localized-text.js";

/**
 * The closed set of parse diagnostic codes (seed 004, "Строго на запись, терпимо на
 * чтение" and "Пределы"). Clients act on these codes; the list in the README mirrors it.
 *
 * - *wrong* codes (severity `error`) make the file skipped;
 * - *not understood* codes (severity `warning`) keep the entry but make it unreachable;
 * - notes (severity `info`) keep the entry as is.
 */
export const DIAGNOSTIC_CODES = {
  // wrong: the file is skipped
  not_utf8: "error",
  nul_byte: "error",
  no_frontmatter: "error",
  unterminated_frontmatter: "error",
  yaml_syntax: "error",
  yaml_alias_limit: "error",
  frontmatter_too_large: "error",
  duplicate_key: "error",
  frontmatter_not_mapping: "error",
  missing_id: "error",
  invalid_id: "error",
  invalid_field: "error",
  invalid_mechanism_params: "error",
  invalid_link: "error",
  file_too_large: "error",
  file_name_not_utf8: "error",
  batch_limit: "error",
  duplicate_id: "error",
  empty_body: "error",
  placeholder_text: "error",
  // not understood: kept, unreachable
  unknown_key: "warning",
  unknown_mechanism: "warning",
  // notes: kept as is
  summary_repeats_body: "info",
  summary_at_cap: "info",
  summary_empty: "info",
  summary_too_long: "info",
  no_contract: "info",
  bom_removed: "info",
  // another source (repository or knowledge root) holds the same id: both are kept
  id_clash: "info",
  // the secret guard's remarks of the push report, for review: the entry is kept as is
  possible_secret: "info",
  possible_prompt_injection: "info",
} as const;

/** One diagnostic code from {@link DIAGNOSTIC_CODES}. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** How bad a diagnostic is: `error` skips the file, `warning` makes it unreachable, `info` is a note. */
export type Severity = "error" | "warning" | "info";

/**
 * One positioned problem found while parsing a file. A value, never thrown
 * (STYLE.md habit 5).
 */
export interface Diagnostic {
  /** Stable machine code. */
  code: DiagnosticCode;
  /** Derived from the code: `error` (file skipped), `warning` (unreachable), `info`. */
  severity: Severity;
  /** The file's path as the caller named it (relative to the repository), when known. */
  path?: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** 1-based column in the file, when known. */
  column?: number;
  /** Where in the frontmatter, e.g. `contract[0].params.words[1]`, when it applies. */
  at?: string;
  /** Values that fill the message, e.g. `{ key: "sumary", nearest: "summary" }`. */
  params: Record<string, string | number>;
  /** The human message in English and Russian. */
  message: LocalizedText;
}

/** Positional and parameter details for {@link makeDiagnostic}. */
export interface DiagnosticDetails {
  path?: string;
  line?: number;
  column?: number;
  at?: string;
  params?: Record<string, string | number>;
}

/** Message templates by code; `{name}` is filled from `params`. */
const TEMPLATES: Record<DiagnosticCode, LocalizedText> = {
  not_utf8: {
    en: "the file is not valid UTF-8 (byte {offset})",
    ru: "файл не в кодировке UTF-8 (байт {offset})",
  },
  nul_byte: {
    en: "the file holds a NUL byte (byte {offset})",
    ru: "в файле есть нулевой байт (байт {offset})",
  },
  no_frontmatter: {
    en: "no frontmatter: the file must start with a `---` line",
    ru: "нет заголовка: файл должен начинаться строкой `---`",
  },
  unterminated_frontmatter: {
    en: "the frontmatter opened on line 1 is never closed by a `---` line",
    ru: "заголовок, открытый в строке 1, не закрыт строкой `---`",
  },
  yaml_syntax: {
    en: "YAML error: {reason}{hint}",
    ru: "ошибка YAML: {reason_ru}{hint_ru}",
  },
  yaml_alias_limit: {
    en: "YAML aliases refused: {reason}",
    ru: "ссылки YAML отклонены: {reason_ru}",
  },
  frontmatter_too_large: {
    en: "the frontmatter expands to more than {limit} bytes once its YAML aliases are followed (the entry file limit); write the text out or shorten it",
    ru: "заголовок разворачивается больше чем в {limit} байт, если раскрыть ссылки YAML (предел файла записи); напишите текст без ссылок или сократите его",
  },
  duplicate_key: {
    en: "key “{key}” appears twice; refused (never last-wins)",
    ru: "ключ «{key}» встречается дважды; отказ (последний не побеждает)",
  },
  frontmatter_not_mapping: {
    en: "the frontmatter is a {kind}, not a mapping of keys",
    ru: "заголовок — {kind_ru}, а не набор ключей",
  },
  missing_id: {
    en: "required key “id” is missing",
    ru: "нет обязательного ключа «id»",
  },
  invalid_id: {
    en: "“{value}” is not a UUIDv7; print a fresh one with `lore id`",
    ru: "«{value}» — не UUIDv7; новый выдаст `lore id`",
  },
  invalid_field: {
    en: "“{key}” must be {expected}{hint}",
    ru: "«{key}» должен быть {expected_ru}{hint_ru}",
  },
  invalid_mechanism_params: {
    en: "mechanism “{mechanism}” needs {expected}{hint}",
    ru: "механизму „{mechanism}“ нужен {expected_ru}{hint_ru}",
  },
  invalid_link: {
    en: "link “{value}” is not a UUIDv7",
    ru: "связь «{value}» — не UUIDv7",
  },
  file_name_not_utf8: {
    en: "the file name is not valid UTF-8 (shown with \\xNN escapes); rename the file",
    ru: "имя файла не в кодировке UTF-8 (показано с экранированием \\xNN); переименуйте файл",
  },
  file_too_large: {
    en: "the file is {size} bytes, over the {limit}-byte limit; skipped",
    ru: "файл занимает {size} байт, больше предела {limit} байт; пропущен",
  },
  batch_limit: {
    en: "the batch is over {limit} bytes; this file goes to the next batch",
    ru: "пачка больше {limit} байт; файл уходит в следующую пачку",
  },
  duplicate_id: {
    en: "id {id} is already used by {other}; skipped",
    ru: "идентификатор {id} уже занят файлом {other}; пропущен",
  },
  id_clash: {
    en: "id {id} is also held by {other}; both are kept — give one of them a new id (lore id)",
    ru: "идентификатор {id} есть и в {other}; сохранены обе — дайте одной новый (lore id)",
  },
  empty_body: {
    en: "the body is empty; an entry needs text",
    ru: "тело пустое; записи нужен текст",
  },
  placeholder_text: {
    en: "the placeholder text of `lore new` is still here (“{text}”); replace it with what the entry says",
    ru: "здесь остался текст-заглушка `lore new` («{text}»); замените его тем, о чём запись",
  },
  unknown_key: {
    en: "key “{key}” is not known, the nearest known is “{nearest}”",
    ru: "ключ „{key}“ не известен, ближайший известный — „{nearest}“",
  },
  unknown_mechanism: {
    en: "mechanism “{mechanism}” is not known to this version; the entry is unreachable until it is",
    ru: "механизм „{mechanism}“ этой версии не известен; запись недостижима, пока он не появится",
  },
  summary_repeats_body: {
    en: "“summary” says the same as the first paragraph; the derived summary is used",
    ru: "«summary» повторяет первый абзац; используется выведенный фрагмент",
  },
  summary_at_cap: {
    en: "the first paragraph is over {limit} bytes; the summary is cut — shorten it in the entry",
    ru: "первый абзац длиннее {limit} байт; фрагмент обрезан — сократите его в записи",
  },
  summary_empty: {
    en: "the first paragraph is empty; the summary is blank — fix it in the entry",
    ru: "первый абзац пуст; фрагмент показа пуст — исправьте это в записи",
  },
  summary_too_long: {
    en: "“summary” is over {limit} bytes; it is cut for display — shorten it in the entry",
    ru: "«summary» длиннее {limit} байт; для показа он обрезан — сократите его в записи",
  },
  no_contract: {
    en: "no contract: the entry never surfaces by itself (findable by text and by id)",
    ru: "нет контракта: запись не всплывает сама (находится по тексту и по id)",
  },
  bom_removed: {
    en: "a UTF-8 byte order mark was ignored",
    ru: "метка порядка байтов UTF-8 проигнорирована",
  },
  possible_secret: {
    en: "possible secret ({rule}); the push is accepted — remove it and rotate the credential, or mark an example with a secretlint-disable-line comment",
    ru: "возможно, секрет ({rule}); отправка принята — уберите его и смените учётные данные или пометьте пример комментарием secretlint-disable-line",
  },
  possible_prompt_injection: {
    en: "possible prompt injection: the text tells the model to {what}; review it (the push is accepted)",
    ru: "возможная инъекция в промпт: текст велит модели {what_ru}; проверьте его (отправка принята)",
  },
};

/**
 * Second templates for codes whose message changes when a parameter is absent: the
 * variant is used when `params[unless]` is undefined (e.g. `unknown_key` with no similar
 * known key — seed 004: «похожих нет» means the file is newer than this version).
 */
const VARIANTS: Partial<Record<DiagnosticCode, { unless: string; template: LocalizedText }>> = {
  unknown_key: {
    unless: "nearest",
    template: {
      en: "key “{key}” is not known and no known key is similar: the file may be newer than this version",
      ru: "ключ „{key}“ не известен, похожих нет — файл, видимо, новее этой версии",
    },
  },
};

/**
 * Builds a diagnostic with its severity and both messages.
 *
 * @param code - the machine code.
 * @param details - position and message parameters; params ending in `_ru` fill the Russian
 *   template where a phrase differs between languages, and fall back to the English value.
 * @returns the diagnostic value.
 */
export function makeDiagnostic(code: DiagnosticCode, details: DiagnosticDetails = {}): Diagnostic {
  const params = details.params ?? {};
  const ruParams: Record<string, string | number> = { ...params };
  for (const [key, value] of Object.entries(params)) {
    if (!key.endsWith("_ru") && ruParams[`${key}_ru`] === undefined) ruParams[`${key}_ru`] = value;
  }
  const variant = VARIANTS[code];
  const template =
    variant !== undefined && params[variant.unless] === undefined
      ? variant.template
      : TEMPLATES[code];
  const diagnostic: Diagnostic = {
    code,
    severity: DIAGNOSTIC_CODES[code],
    params,
    message: { en: fillTemplate(template.en, params), ru: fillTemplate(template.ru, ruParams) },
  };
  if (details.path !== undefined) diagnostic.path = details.path;
  if (details.line !== undefined) diagnostic.line = details.line;
  if (details.column !== undefined) diagnostic.column = details.column;
  if (details.at !== undefined) diagnostic.at = details.at;
  return diagnostic;
}

/**
 * Formats a diagnostic as one report line, `path:line:column: message [code]` (seed 004,
 * "Отчёт разбора": "путь: причина"). The line stays one line whatever the file name or
 * the values quoted in the message hold: the path goes through {@link reportPath}, the
 * message and `at` through {@link oneLine}.
 *
 * @param diagnostic - the diagnostic.
 * @param lang - the message language.
 * @returns one line without a trailing newline (no line break and no control character
 *   but TAB in it).
 */
export function formatDiagnosticLine(diagnostic: Diagnostic, lang: Lang): string {
  let where = diagnostic.path === undefined ? "<input>" : reportPath(diagnostic.path);
  if (diagnostic.line !== undefined) {
    where += `:${diagnostic.line}`;
    if (diagnostic.column !== undefined) where += `:${diagnostic.column}`;
  }
  const at = diagnostic.at ? ` (${oneLine(diagnostic.at)})` : "";
  return `${where}: ${oneLine(diagnostic.message[lang])}${at} [${diagnostic.code}]`;
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
const UNSAFE_BUT_TAB = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we look for
const QUOTED_ESCAPES = /["\\\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** The JSON-style escape of one character: `\n`, `\r`, `\t`, `\"`, `\\`, else `\uXXXX`. */
function escapeChar(char: string): string {
  switch (char) {
    case "\n":
      return "\\n";
    case "\r":
      return "\\r";
    case "\t":
      return "\\t";
    case '"':
      return '\\"';
    case "\\":
      return "\\\\";
    default:
      return `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`;
  }
}

/**
 * A text made safe for one line of a report: each control character but TAB (C0, DEL,
 * C1) and U+2028/U+2029 becomes its JSON-style escape (`\n`, `\r`, `\u001b`); other text
 * is unchanged.
 *
 * @param text - any text (a message, a key path).
 * @returns the text, with no line break or terminal escape in it.
 */
export function oneLine(text: string): string {
  return text.replace(UNSAFE_BUT_TAB, escapeChar);
}

/**
 * A file path as a report line shows it: as it is, unless it holds a control character,
 * U+2028/U+2029 or starts with `"`; then quoted and escaped JSON-style, so `a<LF>b.md`
 * shows as `"a\nb.md"` and each report line stays one line (and unambiguous).
 *
 * @param path - the file's path.
 * @returns the path to print.
 */
export function reportPath(path: string): string {
  if (!UNSAFE.test(path) && !path.startsWith('"')) return path;
  return `"${path.replace(QUOTED_ESCAPES, escapeChar)}"`;
}
