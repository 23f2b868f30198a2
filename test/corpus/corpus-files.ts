/**
 * Where the real-input corpus is (real input) and how to list its files.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is `test/corpus/corpus-files.ts`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The corpus: `../shared/corpus` relative to the repository root. */
export const CORPUS_DIR = resolve(REPO_ROOT, "..", "shared", "corpus");

/** True when the corpus is there (its `SOURCES.md` exists). */
export const CORPUS_PRESENT = existsSync(join(CORPUS_DIR, "SOURCES.md"));

/** The corpus's own description files at its top, not corpus data. */
const META_FILES = new Set(["SOURCES.md", "INDEX.tsv", "sources.json"]);

/**
 * Lists every regular file of the corpus (symbolic links and the top-level description
 * files left out), `/`-separated paths relative to the corpus, sorted.
 */
export async function listCorpusFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const item of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, item.name);
      if (item.isDirectory()) await walk(full);
      else if (item.isFile()) {
        const path = relative(CORPUS_DIR, full).split(sep).join("/");
        if (!META_FILES.has(path)) out.push(path);
      }
    }
  };
  await walk(CORPUS_DIR);
  return out.sort();
}

/** One row of the corpus's `INDEX.tsv` (the properties the suite uses). */
export interface CorpusIndexRow {
  path: string;
  bytes: number;
  bom: boolean;
  crlf: boolean;
  /** `yaml`, `json`, `empty`, `unterminated`, `none` or `n/a`. */
  frontmatter: string;
}

/** Reads `INDEX.tsv` into rows by path. */
export async function readCorpusIndex(): Promise<Map<string, CorpusIndexRow>> {
  const text = await readFile(join(CORPUS_DIR, "INDEX.tsv"), "utf8");
  const [header, ...lines] = text.trimEnd().split("\n");
  const columns = (header ?? "").split("\t");
  const at = (name: string) => columns.indexOf(name);
  const rows = new Map<string, CorpusIndexRow>();
  for (const line of lines) {
    const cells = line.split("\t");
    const path = cells[at("path")] ?? "";
    rows.set(path, {
      path,
      bytes: Number(cells[at("bytes")]),
      bom: cells[at("bom")] === "1",
      crlf: cells[at("crlf")] === "1",
      frontmatter: cells[at("frontmatter")] ?? "",
    });
  }
  return rows;
}
