/**
 * `lore import <file|folder>`: turns real agent-knowledge files into Lore entry files (the
 * rule is in `core/import/import-rule.ts`).
 */
import { lstat, mkdir, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { parseEntry } from "../../core/entry/parse-entry.js";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { readLoreExport } from "../../core/import/import-exported.js";
import {
  IMPORT_MAX_PARTS,
  IMPORT_PART_BYTES,
  importRule,
  isKnowledgeFileName,
  sourceVocabulary,
} from "../../core/import/import-rule.js";
import { type ImportSkipCode, makeImportSkip } from "../../core/import/import-rule-skip.js";
import { type ImportVocabulary, importVocabulary } from "../../core/import/import-rule-words.js";

/** Options of {@link importFolder}. */
export interface ImportFolderOptions {
  /**
   * The file to import, or the folder to read (walked recursively; `.git` folders, Lore's
   * own `.gitriver/knowledge/` folders and `to` are left out).
   */
  from: string;
  /** The folder the entry files are written to (made when missing), e.g.
   * `<repo>/.gitriver/knowledge/imported`. */
  to: string;
  /** Mints a fresh UUIDv7 per entry (`mintEntryId`). */
  mintId: () => string;
  /** Language of the skip messages. Default: `en`. */
  lang?: Lang;
  /** Called after each file with the number of files done and the total. Default: none. */
  onProgress?: (done: number, total: number) => void;
  /**
   * A folder of entry files (`<repo>/.gitriver/knowledge`, walked recursively) whose ids an
   * exported file's entries must not take again (they would be `duplicate_id` in the
   * index): such an entry is left out and named in `taken`. Default: only `to` is looked at.
   */
  entriesDir?: string;
}

/** A source file that became one or more entries. */
export interface ImportedFile {
  /** Path relative to `from`, `/`-separated. */
  path: string;
  /**
   * The ids of its entries, in part order (one unless the file was split); for a file Lore
   * exported, the ids it was exported with (then those minted for the user's own text
   * around an AGENTS.md section).
   */
  ids: string[];
  /**
   * For a file Lore exported: its entries not written because an entry file already holds
   * their id (`path` relative to `entriesDir`, or `to`). Absent when none.
   */
  taken?: Array<{ id: string; path: string }>;
}

/** A source file that was not imported. */
export interface SkippedFile {
  /** Path relative to `from`, `/`-separated. */
  path: string;
  /** Stable reason code (see `IMPORT_SKIP_MESSAGES`). */
  code: ImportSkipCode;
  /** The reason in the report's language. */
  message: string;
}

/** What {@link importFolder} did; `imported.length + skipped.length` = files seen. */
export interface ImportReport {
  /** Files imported, in path order. */
  imported: ImportedFile[];
  /** Files not imported, in path order, each with its reason. */
  skipped: SkippedFile[];
  /** Absolute paths of the entry files written (`<to>/<id>.md`), in order. */
  written: string[];
}

/** Files larger than this are skipped `too_large` without reading them, bytes. */
const MAX_READ_BYTES = IMPORT_PART_BYTES * IMPORT_MAX_PARTS;

/**
 * An `AGENTS.md` (any case, any extension of the import) up to this size is read to look
 * for Lore's section, bytes (256 MB: 4,000 entries of 64 KB): `lore export agents-md` of a
 * large repository writes one file. Its text outside the section still counts against
 * {@link MAX_READ_BYTES}.
 */
const MAX_EXPORT_READ_BYTES = 256 * 1024 * 1024;

/** The names of the files an AGENTS.md export is written to. */
const AGENTS_FILE = /^agents\.md$/iu;

/** Files this small may be a symlink written out as its target path (a git symlink blob). */
const MAX_STUB_BYTES = 512;

/**
 * Imports every knowledge-like file under `from` (see `isKnowledgeFileName`) into entry
 * files `<to>/<id>.md`, in two passes: the first reads every file for the run's vocabulary
 * (`importVocabulary`: template headings and words too common to be contract words), the
 * second imports each file with it, in sorted path order (UTF-16 code unit order of the `/`-separated
 * relative path), so the same folder and the same id sequence give the same files.
 * Symbolic links are never followed (skipped `symlink`); a small one-line file whose text
 * names another regular file inside `from` (a symlink stored as text, as git checkouts
 * without symlink support write it) is skipped `link_stub`; other files are skipped
 * `not_knowledge`, `too_large` (over 3 MB, unread — but an `AGENTS.md` holding Lore's
 * section may be up to 256 MB), `unreadable`, `already_entry` (the
 * file already parses as a Lore entry: importing it again would make an entry of an entry),
 * or by the import rule. A `from` that is a file is imported alone (its path in the report
 * is its name).
 *
 * A file `lore export` wrote (a Lore section of an AGENTS.md, a Cursor rule or a skill
 * holding Lore's `<!-- lore:entry {…} -->` comment; `core/import/import-exported.ts`) gives
 * back its entries with their own ids, contracts and summaries, not the import rule's; the
 * user's text around an AGENTS.md section is imported by the rule as one more file would
 * be. An entry whose id an entry file of `entriesDir` or `to` already holds — or an earlier
 * file of the same run — is not written again (`taken`; a file whose entries are all taken
 * is skipped `id_taken`); a damaged marker skips the file `export_damaged`.
 *
 * @param options - see {@link ImportFolderOptions}.
 * @returns the report: imported files with their ids, skipped files with reasons, files written.
 * @throws LoreError `path_not_found` when `from` is missing; `invalid_input` when it is
 *   neither a file nor a folder; `file_exists` when an entry file already exists in `to`
 *   (ids are fresh, so this means a broken minter).
 */
export async function importFolder(options: ImportFolderOptions): Promise<ImportReport> {
  const lang = options.lang ?? "en";
  const source = await realSource(options.from);
  await mkdir(options.to, { recursive: true });
  const to = await realpath(resolve(options.to));
  const from = source.folder;
  const files =
    source.file === undefined
      ? await walk(from, from, to)
      : [{ path: source.file, absolute: join(from, source.file), symlink: false }];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const report: ImportReport = { imported: [], skipped: [], written: [] };
  const skip = (path: string, code: ImportSkipCode, params: Record<string, string | number>) => {
    report.skipped.push({ path, code, message: makeImportSkip(code, params).message[lang] });
  };
  // First pass: the run's vocabulary (template headings, common words) from every
  // knowledge file it will import; the second pass imports with it.
  const vocabularies = [];
  for (const file of files) {
    const name = file.path.slice(file.path.lastIndexOf("/") + 1);
    if (file.symlink || !isKnowledgeFileName(name)) continue;
    const stat = await lstat(file.absolute).catch(() => null);
    if (stat === null || stat.size > MAX_READ_BYTES) continue;
    const bytes = await readFile(file.absolute).catch(() => null);
    if (bytes === null) continue;
    // An exported file's entries keep their own words; only the user's text around an
    // AGENTS.md section goes through the rule.
    const exported = readLoreExport(textOf(bytes) ?? "");
    if (exported === undefined) vocabularies.push(sourceVocabulary(file.path, bytes));
    else if (!("error" in exported) && exported.remainder !== undefined) {
      vocabularies.push(sourceVocabulary(file.path, exported.remainder));
    }
  }
  const vocabulary = importVocabulary(vocabularies);
  const run: Run = { mintId: options.mintId, vocabulary, heldRoot: options.entriesDir ?? to };
  let done = 0;
  for (const file of files) {
    done++;
    await importOne(file, from, to, run, report, skip);
    options.onProgress?.(done, files.length);
  }
  return report;
}

interface FoundFile {
  /** `/`-separated, relative to `from`. */
  path: string;
  absolute: string;
  symlink: boolean;
}

type Skip = (path: string, code: ImportSkipCode, params: Record<string, string | number>) => void;

interface Run {
  mintId: () => string;
  vocabulary: ImportVocabulary;
  /**
   * Ids already held by an entry file: id → path relative to `heldRoot`. Read at the first
   * exported file: a run without one never parses the repository's entries.
   */
  held?: Map<string, string>;
  heldRoot: string;
}

async function importOne(
  file: FoundFile,
  from: string,
  to: string,
  run: Run,
  report: ImportReport,
  skip: Skip,
): Promise<void> {
  if (file.symlink) return skip(file.path, "symlink", {});
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  if (!isKnowledgeFileName(name)) return skip(file.path, "not_knowledge", {});
  let bytes: Uint8Array;
  let large = false;
  try {
    const stat = await lstat(file.absolute);
    // An AGENTS.md that `lore export` filled may hold thousands of entries: it is read up to
    // a larger bound, and only its Lore section may be that large.
    if (stat.size > MAX_EXPORT_READ_BYTES) {
      return skip(file.path, "too_large", { size: stat.size, limit: MAX_READ_BYTES });
    }
    large = stat.size > MAX_READ_BYTES;
    if (large && !AGENTS_FILE.test(name)) {
      return skip(file.path, "too_large", { size: stat.size, limit: MAX_READ_BYTES });
    }
    bytes = await readFile(file.absolute);
  } catch (error) {
    return skip(file.path, "unreadable", { reason: (error as Error).message });
  }
  const target = await linkStubTarget(bytes, file.absolute, from);
  if (target !== undefined) return skip(file.path, "link_stub", { target });
  const text = textOf(bytes);
  const exported = text === undefined ? undefined : readLoreExport(text);
  if (exported !== undefined && !("error" in exported && large)) {
    if ("error" in exported) return skip(file.path, "export_damaged", { reason: exported.error });
    const remainder = exported.remainder;
    if (large && remainder !== undefined && Buffer.byteLength(remainder) > MAX_READ_BYTES) {
      return skip(file.path, "too_large", { size: bytes.length, limit: MAX_READ_BYTES });
    }
    return importExported(file, exported, to, run, report, skip);
  }
  if (large) return skip(file.path, "too_large", { size: bytes.length, limit: MAX_READ_BYTES });
  const asEntry = parseEntry(bytes, { mode: "lenient" }).value;
  if (asEntry !== undefined) return skip(file.path, "already_entry", { id: asEntry.entry.id });
  const outcome = importRule({ path: file.path, bytes }, run.mintId, run.vocabulary);
  if (outcome.skip) return skip(file.path, outcome.skip.code, outcome.skip.params);
  const ids: string[] = [];
  for (const imported of outcome.entries) {
    await writeFresh(to, imported.entry.id, imported.text, report);
    ids.push(imported.entry.id);
  }
  report.imported.push({ path: file.path, ids });
}

/** Writes a freshly minted entry's file; a file already there means a broken minter. */
async function writeFresh(to: string, id: string, text: string, report: ImportReport) {
  const out = join(to, `${id}.md`);
  try {
    await writeFile(out, text, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new LoreError("file_exists", { path: out }, { cause: error });
    }
    throw error;
  }
  report.written.push(out);
}

/** Imports the entries of a file Lore exported, with their ids (see {@link importFolder}). */
async function importExported(
  file: FoundFile,
  exported: Exclude<ReturnType<typeof readLoreExport>, undefined | { error: string }>,
  to: string,
  run: Run,
  report: ImportReport,
  skip: Skip,
): Promise<void> {
  const ids: string[] = [];
  const taken: Array<{ id: string; path: string }> = [];
  run.held ??= await heldIds(run.heldRoot);
  const held = run.held;
  for (const { entry, text } of exported.entries) {
    const holder = held.get(entry.id);
    if (holder !== undefined) {
      taken.push({ id: entry.id, path: holder });
      continue;
    }
    const out = join(to, `${entry.id}.md`);
    try {
      await writeFile(out, text, { flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      taken.push({ id: entry.id, path: relative(run.heldRoot, out).split(sep).join("/") });
      continue;
    }
    held.set(entry.id, relative(run.heldRoot, out).split(sep).join("/"));
    report.written.push(out);
    ids.push(entry.id);
  }
  if (exported.remainder !== undefined) {
    const outcome = importRule(
      { path: file.path, bytes: exported.remainder },
      run.mintId,
      run.vocabulary,
    );
    for (const imported of outcome.entries) {
      await writeFresh(to, imported.entry.id, imported.text, report);
      ids.push(imported.entry.id);
    }
  }
  const first = taken[0];
  if (ids.length === 0 && first !== undefined) {
    return skip(file.path, "id_taken", { id: first.id, holder: first.path, count: taken.length });
  }
  if (ids.length === 0) return skip(file.path, "empty", {});
  report.imported.push({ path: file.path, ids, ...(taken.length > 0 ? { taken } : {}) });
}

/** The text of a file when it is UTF-8 without a NUL byte; else `undefined` (the rule skips it). */
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The ids held by the entry files under a folder (`*.md`, walked recursively, each parsed
 * leniently): id → path relative to the folder. A missing folder holds none.
 */
async function heldIds(dir: string): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  const visit = async (at: string): Promise<void> => {
    const items = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const item of items) {
      const absolute = join(at, item.name);
      if (item.isDirectory()) await visit(absolute);
      else if (item.isFile() && item.name.endsWith(".md")) {
        const bytes = await readFile(absolute).catch(() => null);
        const id =
          bytes === null ? undefined : parseEntry(bytes, { mode: "lenient" }).value?.entry.id;
        if (id !== undefined && !held.has(id))
          held.set(id, relative(dir, absolute).split(sep).join("/"));
      }
    }
  };
  await visit(dir);
  return held;
}

/** The folder to read, and the file's name in it when `path` names one file. */
async function realSource(path: string): Promise<{ folder: string; file?: string }> {
  let real: string;
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    real = await realpath(path);
    info = await lstat(real);
  } catch (error) {
    throw new LoreError("path_not_found", { path }, { cause: error });
  }
  if (info.isDirectory()) return { folder: real };
  if (info.isFile()) return { folder: dirname(real), file: basename(real) };
  throw new LoreError("invalid_input", {
    reason: `${path} is neither a file nor a folder; lore import takes a file or a folder`,
    reason_ru: `${path} — не файл и не папка; lore import принимает файл или папку`,
  });
}

/**
 * Lists files and symlinks under `dir`, leaving out `.git` folders, Lore's own
 * `.gitriver/knowledge/` folders (they hold entries already) and the `to` folder.
 */
async function walk(dir: string, root: string, to: string): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    const absolute = join(dir, entry.name);
    const path = relative(root, absolute).split(sep).join("/");
    if (entry.isSymbolicLink()) found.push({ path, absolute, symlink: true });
    else if (entry.isDirectory()) {
      if (entry.name === ".git" || absolute === to) continue;
      if (entry.name === "knowledge" && basename(dir) === ".gitriver") continue;
      found.push(...(await walk(absolute, root, to)));
    } else if (entry.isFile()) found.push({ path, absolute, symlink: false });
  }
  return found;
}

/**
 * The target named by a symlink stored as a text file: one line, no spaces, naming a
 * regular file inside `root` relative to the file's folder. Undefined otherwise.
 */
async function linkStubTarget(
  bytes: Uint8Array,
  absolute: string,
  root: string,
): Promise<string | undefined> {
  if (bytes.length === 0 || bytes.length > MAX_STUB_BYTES) return undefined;
  const text = Buffer.from(bytes).toString("utf8").trim();
  if (!/^[^\s]+$/u.test(text) || !/\.[A-Za-z0-9]+$/u.test(text)) return undefined;
  const target = resolve(dirname(absolute), text);
  if (!target.startsWith(root + sep)) return undefined;
  try {
    return (await lstat(target)).isFile() ? relative(root, target).split(sep).join("/") : undefined;
  } catch {
    return undefined;
  }
}
