/**
 * Why a file was not imported (real input): stable reason codes with
 * messages in English and Russian, for `importRule` and `importFolder`.
 */
import { fillTemplate, type LocalizedText } from "../errors/localized-text.js";

/**
 * Why a file was not imported. `binary`, `not_utf8`, `empty`, `too_large`,
 * `frontmatter_too_large`, `rejected` come from `importRule`; `not_knowledge`, `symlink`,
 * `link_stub`, `unreadable`, `already_entry` (the file parses as an entry) from the folder
 * walk (`importFolder`); `export_damaged` (a file `lore export` wrote, whose marker is
 * broken) and `id_taken` (every entry of an exported file has an id another entry file
 * already holds) from the import of exported files.
 */
export const IMPORT_SKIP_MESSAGES = {
  binary: {
    en: "the file holds a NUL byte (binary); not imported",
    ru: "в файле есть нулевой байт (двоичный файл); не импортирован",
  },
  not_utf8: {
    en: "the file is not valid UTF-8 (byte {offset}); not imported",
    ru: "файл не в кодировке UTF-8 (байт {offset}); не импортирован",
  },
  empty: {
    en: "the file has no text (no letter or digit); not imported",
    ru: "в файле нет текста (ни буквы, ни цифры); не импортирован",
  },
  too_large: {
    en: "the file is {size} bytes, more than {limit} bytes can be imported",
    ru: "файл занимает {size} байт, импортировать можно не больше {limit} байт",
  },
  frontmatter_too_large: {
    en: "the frontmatter expands to more than {limit} bytes once its YAML aliases are followed; not imported",
    ru: "заголовок разворачивается больше чем в {limit} байт, если раскрыть ссылки YAML; не импортирован",
  },
  rejected: {
    en: "the imported entry did not pass the strict parse: {reason}",
    ru: "импортированная запись не прошла строгий разбор: {reason}",
  },
  not_knowledge: {
    en: "not a knowledge file (type or name not imported)",
    ru: "не файл знания (такой тип или имя не импортируется)",
  },
  symlink: {
    en: "a symbolic link; not followed",
    ru: "символическая ссылка; не открывается",
  },
  link_stub: {
    en: "the file only names another file ({target}), which is imported itself",
    ru: "файл лишь называет другой файл ({target}), который импортируется сам",
  },
  unreadable: {
    en: "the file could not be read: {reason}",
    ru: "файл не прочитан: {reason}",
  },
  export_damaged: {
    en: "a file Lore exported, with a damaged marker ({reason}); not imported",
    ru: "файл, выгруженный Lore, с повреждённой меткой ({reason}); не импортирован",
  },
  id_taken: {
    en: "exported by Lore: the id {id} is already held by {holder} ({count} of its entries); not imported again",
    ru: "выгружен Lore: идентификатор {id} уже занят файлом {holder} (записей файла: {count}); повторно не импортируется",
  },
  already_entry: {
    en: "already a Lore entry (id {id}); not imported again",
    ru: "уже запись Lore (id {id}); повторно не импортируется",
  },
} as const satisfies Record<string, LocalizedText>;

/** One reason code of {@link IMPORT_SKIP_MESSAGES}. */
export type ImportSkipCode = keyof typeof IMPORT_SKIP_MESSAGES;

/** A file that was not imported: a stable code and a message in English and Russian. */
export interface ImportSkip {
  code: ImportSkipCode;
  params: Record<string, string | number>;
  message: LocalizedText;
}

/**
 * Builds an {@link ImportSkip}.
 *
 * @param code - the reason code.
 * @param params - values for the message (`size`, `limit`, `reason`, `target`).
 */
export function makeImportSkip(
  code: ImportSkipCode,
  params: Record<string, string | number> = {},
): ImportSkip {
  const template = IMPORT_SKIP_MESSAGES[code];
  return {
    code,
    params,
    message: { en: fillTemplate(template.en, params), ru: fillTemplate(template.ru, params) },
  };
}
