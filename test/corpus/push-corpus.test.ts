/**
 * Corpus suite (d): parse on push over real files (seed 004, "Разбор при отправке"). Every
 * `.md` file of `../shared/corpus` is pushed with the real `git` client into a hosted
 * repository whose hooks are Lore's: the push passes (parse never refuses one), the
 * `remote:` report is capped, and every pushed file is in the index — an entry or a skipped
 * file with its diagnostics — exactly as the lenient parser judges the same bytes. A second
 * push wraps real corpus texts as entries: each becomes an entry with its real body.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { mintEntryId } from "../../src/services/knowledge/mint-entry-id.js";
import buildDist from "../global-setup.js";
import { type HostedPush, makeHostedPush } from "../helpers/hosted-push.js";
import { CORPUS_DIR, CORPUS_PRESENT, listCorpusFiles } from "./corpus-files.js";

const K = ".gitriver/knowledge";

if (!CORPUS_PRESENT) {
  process.stderr.write(`corpus push suite skipped: no corpus at ${CORPUS_DIR}\n`);
}

describe.skipIf(!CORPUS_PRESENT)("parse on push over every corpus .md file", () => {
  let hosted: HostedPush;
  let files: string[] = [];

  beforeAll(async () => {
    buildDist();
    files = (await listCorpusFiles()).filter((path) => path.endsWith(".md"));
    const contents: Record<string, Uint8Array> = {};
    for (const path of files) contents[`${K}/${path}`] = await readFile(join(CORPUS_DIR, path));
    hosted = await makeHostedPush(contents);
  }, 300_000);

  afterAll(async () => {
    await hosted?.cleanup();
  });

  it("the push passes, the report is capped, every file is stored as the parser judges it", async () => {
    expect(files.length).toBeGreaterThan(1000);
    const pushed = await hosted.push(["main"]);
    expect(pushed.exitCode).toBe(0);
    expect(pushed.stderr).not.toMatch(/internal error|\n\s+at /);
    // One line per remark at most 200, then one "… and N more" line (and the summaries).
    expect(pushed.remote.some((line) => /… and \d+ more/.test(line))).toBe(true);
    expect(pushed.remote.length).toBeLessThan(260);

    const index = hosted.index();
    try {
      const stored = index.listFiles("acme/app");
      expect(stored.size).toBe(files.length);
      const reports = new Map(index.fileReports("acme/app").map((r) => [r.path, r]));
      const mismatched: string[] = [];
      for (const path of files) {
        const bytes = await readFile(join(CORPUS_DIR, path));
        const judged = parseEntry(bytes, { mode: "lenient", path: `${K}/${path}` });
        const report = reports.get(`${K}/${path}`);
        if (report === undefined) {
          mismatched.push(`${path}: not stored`);
          continue;
        }
        const isEntry = report.entryId !== null;
        if (isEntry !== (judged.value !== undefined)) mismatched.push(`${path}: entry=${isEntry}`);
        if (!isEntry && !report.diagnostics.some((d) => d.severity === "error")) {
          mismatched.push(`${path}: skipped without an error`);
        }
      }
      expect(mismatched).toEqual([]);
    } finally {
      index.close();
    }
  }, 300_000);

  it("real texts wrapped as entries become entries with their real bodies", async () => {
    const texts = files.filter(
      (path) => path.startsWith("russian/") || path.startsWith("agent-rules/"),
    );
    const wrapped: Record<string, string> = {};
    const ids = new Map<string, string>();
    for (const path of texts.slice(0, 300)) {
      const raw = (await readFile(join(CORPUS_DIR, path), "utf8")).replace(/^\uFEFF/, "");
      // Only the body: a frontmatter of its own would be a second block.
      const body = raw.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, "").trim();
      if (body === "" || Buffer.byteLength(body) > 60_000) continue;
      const id = mintEntryId();
      ids.set(id, path);
      wrapped[`${K}/wrapped/${id}.md`] = `---\nid: ${id}\norigin: human\n---\n\n${body}\n`;
    }
    expect(ids.size).toBeGreaterThan(100);
    await hosted.work.commit(wrapped, "wrapped corpus texts");
    const pushed = await hosted.push(["main"]);
    expect(pushed.exitCode).toBe(0);
    const index = hosted.index();
    try {
      const missing: string[] = [];
      for (const [id, path] of ids) {
        const entry = index.getEntry(id, "acme/app");
        if (entry === undefined) missing.push(path);
        else expect(entry.body.length).toBeGreaterThan(0);
      }
      expect(missing).toEqual([]);
    } finally {
      index.close();
    }
  }, 300_000);
});
