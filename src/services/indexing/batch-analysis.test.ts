import { describe, expect, it } from "vitest";
import { LoreError } from "../../core/errors/lore-error.js";
import { stemToken } from "../../core/text/stem.js";
import {
  analyseFiles,
  type FileAnalysis,
  inlineAnalyser,
  startWorkerAnalyser,
  workerScript,
} from "./batch-analysis.js";

const encode = (text: string) => new TextEncoder().encode(text);
const good = (n: number) =>
  encode(
    `---\nid: 0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [откат, deploy]\n---\n\nКак откатить деплой ${n}.\n`,
  );
const files = [
  { path: ".gitriver/knowledge/a.md", bytes: good(1) },
  { path: ".gitriver/knowledge/bad.md", bytes: encode("---\nid: [broken\n---\n\nBody.\n") },
  { path: ".gitriver/knowledge/b.md", bytes: good(2) },
];

/** The analyses with their full-text columns as strings (a worker's come as UTF-8 bytes). */
const asText = (analyses: FileAnalysis[]) =>
  analyses.map(({ parse, document }) => {
    if (document === undefined) return { parse };
    const text = (column: string | Uint8Array) =>
      typeof column === "string" ? column : new TextDecoder().decode(column);
    const summaryText = text(document.summaryText);
    return { parse, document: { ...document, summaryText, bodyText: text(document.bodyText) } };
  });

describe("batch analysis", () => {
  it("finds the compiled worker script (the global setup builds dist/)", () => {
    expect(workerScript()).toMatch(/dist[\\/]services[\\/]indexing[\\/]index-worker\.js$/);
  });

  it("gives the same analysis in the worker thread as in this thread", async () => {
    const inline = analyseFiles(files);
    expect(inline.files.map((a) => a.document === undefined)).toEqual([false, true, false]);
    // The first analysis of this process computed every stem: each is returned, once.
    expect(inline.stems.map(([token]) => token)).toContain("деплой");
    expect(new Set(inline.stems.map(([token]) => token)).size).toBe(inline.stems.length);
    for (const [token, stem] of inline.stems) expect(stemToken(token)).toBe(stem);
    // In this thread the document is left to the index (computed as each entry is stored,
    // stemming through the index's memo itself).
    expect(await inlineAnalyser().analyse(files)).toEqual({
      files: inline.files.map(({ parse }) => ({ parse })),
      stems: [],
    });
    const worker = startWorkerAnalyser();
    if (worker === undefined) throw new Error("no worker script");
    try {
      // Overlapping calls each get their own files back; stems already computed by the
      // worker are not returned again.
      const [all, one] = await Promise.all([worker.analyse(files), worker.analyse(files.slice(2))]);
      // The full-text columns come as UTF-8 bytes, off this thread's heap.
      expect(all.files[0]?.document?.bodyText).toBeInstanceOf(Uint8Array);
      expect({ ...all, files: asText(all.files) }).toEqual(inline);
      expect(one.stems).toEqual([]);
      expect(asText(one.files)).toEqual([inline.files[2]]);
    } finally {
      await worker.close();
    }
  });

  it("leaves the bodies out of a worker's answers when asked, with the same documents", async () => {
    const inline = analyseFiles(files);
    const worker = startWorkerAnalyser({ dropBodies: true });
    if (worker === undefined) throw new Error("no worker script");
    try {
      const { files: answered } = await worker.analyse(files);
      expect(answered.map((a) => a.parse.value?.entry.body)).toEqual(["", undefined, ""]);
      expect(asText(answered).map((a) => a.document)).toEqual(inline.files.map((a) => a.document));
      expect(inline.files[0]?.parse.value?.entry.body).toContain("Как откатить деплой 1.");
      const withoutBody = inline.files.map(({ parse }) =>
        parse.value === undefined
          ? parse
          : { ...parse.value, entry: { ...parse.value.entry, body: "" } },
      );
      expect(answered.map(({ parse }) => parse.value ?? parse)).toEqual(withoutBody);
    } finally {
      await worker.close();
    }
  });

  it("fails pending and later calls with index_failed once the worker is gone; never hangs", async () => {
    const worker = startWorkerAnalyser();
    if (worker === undefined) throw new Error("no worker script");
    const pending = expect(worker.analyse(files)).rejects.toMatchObject({ code: "index_failed" });
    await worker.close();
    await pending;
    const later = worker.analyse(files);
    await expect(later).rejects.toBeInstanceOf(LoreError);
    await expect(later).rejects.toMatchObject({ code: "index_failed" });
  });
});
