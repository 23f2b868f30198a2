/**
 * Corpus suite (a): `lore check` over every real file of `../shared/corpus` (real
 * input): no crash, every file parsed or diagnosed. Almost no real file is a Lore entry
 * (no `id`), so nearly all are *wrong* — the point is that each gets a diagnostic, never a
 * throw or a hang.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import { isolatedEnv, runLore } from "../e2e/run-lore.js";
import buildDist from "../global-setup.js";
import {
  CORPUS_DIR,
  CORPUS_PRESENT,
  type CorpusIndexRow,
  listCorpusFiles,
  readCorpusIndex,
} from "./corpus-files.js";

/** The `--json` output of `lore check` (the fields the suite reads). */
interface CheckJson {
  ok: boolean;
  files: number;
  entries: number;
  skipped: number;
  unreachable: number;
  diagnostics: { path: string; code: string; severity: string; message: string }[];
  report: string[];
}

if (!CORPUS_PRESENT) {
  process.stderr.write(`corpus suite skipped: no corpus at ${CORPUS_DIR}\n`);
}

describe.skipIf(!CORPUS_PRESENT)("lore check over every corpus file", () => {
  let files: string[] = [];
  let index = new Map<string, CorpusIndexRow>();

  beforeAll(async () => {
    buildDist();
    files = await listCorpusFiles();
    index = await readCorpusIndex();
  });

  it("lists the files INDEX.tsv describes", () => {
    expect(files.length).toBeGreaterThan(4000);
    expect(files.filter((path) => !index.has(path))).toEqual([]);
  });

  it("the real CLI diagnoses every file, crashes on none, and the counts add up", async () => {
    const { env, cleanup } = isolatedEnv();
    try {
      const run = await runLore(["check", "--json", ...files], { cwd: CORPUS_DIR, env });
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(run.code).toBe(7); // some file is wrong: the check exit code, not a crash
      const summary = JSON.parse(run.stdout) as CheckJson;
      expect(summary.ok).toBe(false);
      expect(summary.files).toBe(files.length);
      expect(summary.entries + summary.skipped).toBe(files.length);

      const wrong = new Set(
        summary.diagnostics.filter((d) => d.severity === "error").map((d) => d.path),
      );
      expect(wrong.size).toBe(summary.skipped);
      const known = new Set(files);
      expect([...wrong].filter((path) => !known.has(path))).toEqual([]);
      // Every edge case (BOM, CRLF, huge, empty) is diagnosed, none parsed as an entry.
      const edge = files.filter((path) => path.startsWith("edge-cases/"));
      expect(edge.length).toBeGreaterThan(50);
      expect(edge.filter((path) => !wrong.has(path))).toEqual([]);
      // Files over 64 KB are reported as such.
      const big = files.filter((path) => (index.get(path)?.bytes ?? 0) > 64 * 1024);
      const tooLarge = new Set(
        summary.diagnostics.filter((d) => d.code === "file_too_large").map((d) => d.path),
      );
      expect(big.filter((path) => !tooLarge.has(path))).toEqual([]);
      // The report has a line per diagnosed file at least.
      expect(summary.report.length).toBeGreaterThanOrEqual(wrong.size);

      const codes = new Map<string, number>();
      for (const d of summary.diagnostics) codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
      process.stderr.write(
        `corpus check: ${summary.files} files, ${summary.entries} entries, ${summary.skipped} wrong; ` +
          `diagnostics by code: ${JSON.stringify(Object.fromEntries([...codes].sort()))}\n`,
      );
    } finally {
      cleanup();
    }
  });

  it("the lenient parser alone: every file parsed or diagnosed with an error, by INDEX.tsv kind", async () => {
    const undiagnosed: string[] = [];
    const byKind = new Map<string, Set<string>>();
    for (const path of files) {
      const bytes = await readFile(join(CORPUS_DIR, path));
      const result = parseEntry(bytes, { mode: "lenient", path });
      const errors = result.diagnostics.filter((d) => d.severity === "error");
      if (result.value === undefined && errors.length === 0) undiagnosed.push(path);
      if (result.value !== undefined && errors.length > 0) undiagnosed.push(`${path} (both)`);
      const kind = index.get(path)?.frontmatter ?? "?";
      const codes = byKind.get(kind) ?? new Set<string>();
      for (const d of errors) codes.add(d.code);
      byKind.set(kind, codes);
      // Files without frontmatter are refused for exactly that reason (or as too large).
      if (kind === "none" && (index.get(path)?.bytes ?? 0) <= 64 * 1024) {
        expect(errors.map((d) => d.code)).toContain("no_frontmatter");
      }
    }
    expect(undiagnosed).toEqual([]);
    process.stderr.write(
      `corpus parse: error codes by frontmatter kind: ${JSON.stringify(
        Object.fromEntries([...byKind].map(([kind, codes]) => [kind, [...codes].sort()])),
      )}\n`,
    );
  });
});
