/**
 * Corpus suite: export → import round trip (export and import, both ways). The whole of
 * `../shared/corpus` is imported with `importFolder`, committed to a temp git repository and
 * indexed; its reachable entries are exported as AGENTS.md, Cursor rules and Agent Skills,
 * and each export is imported again into an empty folder: every exported entry must come
 * back with its id, its summary, its contract and its body, and a second export must be
 * byte-identical (real input).
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGitRepo } from "../../src/adapters/git-cli/git-cli-repo.js";
import { normalizeBody } from "../../src/core/entry/frontmatter-fences.js";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import type { ExportFormat } from "../../src/core/export/export-entry.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { type ExportSource, exportSource } from "../../src/services/export/export-source.js";
import { writeExport } from "../../src/services/export/write-export.js";
import { importFolder } from "../../src/services/import/import-folder.js";
import { indexRepository } from "../../src/services/indexing/index-repo.js";
import { mintEntryId } from "../../src/services/knowledge/mint-entry-id.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { CORPUS_DIR, CORPUS_PRESENT } from "./corpus-files.js";

if (!CORPUS_PRESENT) {
  process.stderr.write(`export corpus suite skipped: no corpus at ${CORPUS_DIR}\n`);
}

/** A digest of every file under a folder (paths and bytes), to compare two exports. */
async function digest(dir: string): Promise<string> {
  const hash = createHash("sha256");
  const names = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((item) => item.isFile())
    .map((item) => join(item.parentPath, item.name))
    .sort();
  for (const name of names)
    hash
      .update(name)
      .update("\0")
      .update(await readFile(name));
  return hash.digest("hex");
}

describe.skipIf(!CORPUS_PRESENT)("export the corpus and import it back", () => {
  let repo: TestRepo;
  let temp: string;
  let index: EntryIndex;
  let source: ExportSource;

  beforeAll(async () => {
    repo = await makeRepo({});
    temp = await mkdtemp(join(tmpdir(), "lore-export-corpus-"));
    const started = Date.now();
    await importFolder({
      from: CORPUS_DIR,
      to: join(repo.dir, ".gitriver", "knowledge", "imported"),
      mintId: mintEntryId,
    });
    await repo.commit({}, "import the corpus");
    index = openIndex(join(temp, "index.db"));
    const git = await openGitRepo(repo.dir);
    try {
      await indexRepository({ index, repo: git, repoName: "corpus" });
    } finally {
      await git.close();
    }
    const indexedAt = Date.now();
    source = exportSource(index, "corpus");
    process.stderr.write(
      `export corpus: ${source.entries.length} reachable entries (${source.unreachable} unreachable); import+index ${indexedAt - started} ms, read ${Date.now() - indexedAt} ms\n`,
    );
  });

  afterAll(async () => {
    index?.close();
    await repo?.cleanup();
    if (temp) await rm(temp, { recursive: true, force: true });
  });

  it("has thousands of reachable entries to export", () => {
    expect(source.entries.length).toBeGreaterThan(3000);
  });

  for (const format of ["agents-md", "cursor", "skills"] as ExportFormat[]) {
    it(`${format}: every exported entry comes back with its id, summary, contract and body`, async () => {
      const out = join(temp, `out-${format}`);
      const started = Date.now();
      const report = await writeExport({ format, entries: source.entries, out });
      const exportedAt = Date.now();
      expect(report.left_out).toEqual([]);
      expect(report.ids).toHaveLength(source.entries.length);
      const first = await digest(out);
      const again = await writeExport({ format, entries: [...source.entries].reverse(), out });
      expect(again.written).toEqual([]);
      expect(again.removed).toEqual([]);
      expect(await digest(out)).toBe(first);

      const into = join(temp, `in-${format}`);
      const imported = await importFolder({
        from: out,
        to: into,
        mintId: () => {
          throw new Error("an exported entry was given a fresh id");
        },
      });
      process.stderr.write(
        `export corpus ${format}: ${report.written.length} files in ${exportedAt - started} ms; import back ${Date.now() - exportedAt} ms\n`,
      );
      expect(imported.skipped).toEqual([]);
      const ids = imported.imported.flatMap((file) => file.ids);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...report.ids].sort());
      let checked = 0;
      for (const item of source.entries) {
        const parsed = parseEntry(await readFile(join(into, `${item.entry.id}.md`)), {
          mode: "lenient",
        }).value;
        expect(parsed?.entry.id).toBe(item.entry.id);
        expect(parsed?.summary).toBe(item.summary);
        expect(parsed?.entry.contract).toEqual(item.entry.contract);
        expect(parsed?.entry.summary).toBe(item.entry.summary);
        expect(parsed?.entry.links).toEqual(item.entry.links);
        expect(parsed?.entry.body).toBe(normalizeBody(item.entry.body));
        checked++;
      }
      expect(checked).toBe(source.entries.length);
    });
  }
});
