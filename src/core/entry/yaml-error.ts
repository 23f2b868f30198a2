import { YAMLException } from "js-yaml";
import { type Diagnostic, type DiagnosticDetails, makeDiagnostic } from "./diagnostic.js";
import type { Hint } from "./field-diagnostic.js";
import { mappingKeyAt } from "./frontmatter-locator.js";

/** Russian for the js-yaml reasons a hand-edited frontmatter meets; others stay English. */
const REASONS_RU: readonly (readonly [string, string])[] = [
  ["tab characters must not be used in indentation", "в отступе символ табуляции"],
  ["unidentified alias", "неизвестная ссылка (alias)"],
  ["name of an alias node must contain at least one character", "у ссылки (alias) нет имени"],
  ["bad indentation of a mapping entry", "неверный отступ ключа"],
  ["bad indentation of a sequence entry", "неверный отступ элемента списка"],
  ["unknown tag", "неизвестный тег"],
  ["end of the stream or a document separator is expected", "ожидался конец заголовка"],
  ["unexpected end of the stream within a double quoted scalar", "кавычки не закрыты"],
  ["unexpected end of the stream within a single quoted scalar", "кавычки не закрыты"],
  ["unexpected end of the stream within a flow collection", "скобки не закрыты"],
  ["missed comma between flow collection entries", "пропущена запятая между элементами"],
  [
    "expected a single document in the stream, but found more",
    "в заголовке больше одного документа",
  ],
];

const HINTS = {
  alias: {
    hint: " — a value that starts with `*` reads as a YAML alias; put it in quotes",
    hint_ru: " — значение, начинающееся с `*`, YAML читает как ссылку; возьмите его в кавычки",
  },
  tag: {
    hint: " — a value that starts with `!` reads as a YAML tag; put it in quotes",
    hint_ru: " — значение, начинающееся с `!`, YAML читает как тег; возьмите его в кавычки",
  },
  reserved: {
    hint: " — a value cannot start with `@` or a backquote in YAML; put it in quotes",
    hint_ru:
      " — в YAML значение не может начинаться с `@` или обратной кавычки; возьмите его в кавычки",
  },
  tab: {
    hint: " — YAML indents with spaces only",
    hint_ru: " — YAML допускает в отступах только пробелы",
  },
  none: { hint: "", hint_ru: "" },
} as const;

/**
 * Turns an error thrown by js-yaml into a diagnostic: `duplicate_key` (with the key and
 * its line) for a duplicated mapping key, otherwise `yaml_syntax` with the parser's reason,
 * its Russian translation when known, and a hint where one helps (a value starting with
 * `*`, `!`, `@`, a backquote; a tab in indentation). Positions are file lines: the YAML's
 * first line is line 2.
 *
 * @param error - what js-yaml threw (a `RangeError` means nesting overflowed the stack).
 * @param yaml - the frontmatter text.
 * @param where - adds the file's path to the details.
 * @returns the diagnostic.
 */
export function yamlErrorDiagnostic(
  error: unknown,
  yaml: string,
  where: (details: DiagnosticDetails) => DiagnosticDetails,
): Diagnostic {
  if (!(error instanceof YAMLException)) {
    // js-yaml recurses per nesting level; a deep enough nesting overflows the stack.
    const deep = error instanceof RangeError;
    const params = {
      reason: deep ? "the frontmatter nests too deep to read" : String(error),
      reason_ru: deep ? "заголовок вложен слишком глубоко" : String(error),
      hint: "",
    };
    return makeDiagnostic("yaml_syntax", where({ line: 2, params }));
  }
  // A reason can quote a tag of any length; messages stay short.
  const reason = Array.from((error.reason || error.message).slice(0, 400))
    .slice(0, 200)
    .join("");
  const mark = error.mark as { line?: number; column?: number } | undefined;
  const position =
    mark?.line === undefined
      ? { line: 2 }
      : { line: mark.line + 2, column: (mark.column ?? 0) + 1 };
  const lineText = yaml.split("\n", (mark?.line ?? 0) + 1)[mark?.line ?? 0] ?? "";
  if (reason.startsWith("duplicated mapping key")) {
    const key = Array.from(mappingKeyAt(lineText, mark?.column ?? 0).slice(0, 200))
      .slice(0, 80)
      .join("");
    return makeDiagnostic("duplicate_key", where({ ...position, params: { key } }));
  }
  const translation = REASONS_RU.find(([en]) => reason.startsWith(en));
  const reasonRu = translation ? translation[1] + reason.slice(translation[0].length) : reason;
  return makeDiagnostic(
    "yaml_syntax",
    where({ ...position, params: { reason, reason_ru: reasonRu, ...hintFor(reason, lineText) } }),
  );
}

function hintFor(reason: string, lineText: string): Hint {
  if (reason.startsWith("unidentified alias") || reason.startsWith("name of an alias")) {
    return HINTS.alias;
  }
  if (reason.startsWith("unknown tag")) return HINTS.tag;
  if (reason.startsWith("tab characters")) return HINTS.tab;
  if (/(?:^|:[ \t]|-[ \t])[ \t]*[@`]/.test(lineText)) return HINTS.reserved;
  return HINTS.none;
}
