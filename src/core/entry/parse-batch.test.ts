import { describe, expect, it } from "vitest";
import { LIMITS } from "./entry.js";
import { type BatchFile, parseBatch } from "./parse-batch.js";
import { parseEntry } from "./parse-entry.js";

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const enc = (text: string) => new TextEncoder().encode(text);
const entryFile = (path: string, id: string, body = "Body.\n"): BatchFile => ({
  path,
  bytes: enc(
    `---\nid: ${id}\ncontract:\n  - mechanism: on_tool\n    params: {name: t}\n---\n\n${body}`,
  ),
});

describe("parseBatch", () => {
  it("case 3: a bad file beside two valid ones — the two parse, the bad one is skipped with path, line, reason", () => {
    const result = parseBatch(
      [
        entryFile("k/a.md", ID),
        { path: "k/letterhead.md", bytes: enc("---\n**Team letterhead**\n---\n\nHello\n") },
        entryFile("k/b.md", ID2),
      ],
      { mode: "lenient" },
    );
    expect(result.entries.map((e) => e.path)).toEqual(["k/a.md", "k/b.md"]);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]?.path).toBe("k/letterhead.md");
    expect(result.skipped[0]?.diagnostics.map((d) => [d.code, d.path, d.line])).toEqual([
      ["yaml_syntax", "k/letterhead.md", 2],
    ]);
    expect(result.deferred).toEqual([]);
    expect(result.diagnostics).toEqual([]);
  });

  it("duplicate ids: the first in the given order wins, the later one names it", () => {
    const result = parseBatch(
      [entryFile("k/b.md", ID), entryFile("k/a.md", ID), entryFile("k/c.md", ID2)],
      {
        mode: "lenient",
      },
    );
    expect(result.entries.map((e) => e.path)).toEqual(["k/b.md", "k/c.md"]);
    expect(
      result.skipped.map((s) => [s.path, s.diagnostics.map((d) => [d.code, d.params])]),
    ).toEqual([["k/a.md", [["duplicate_id", { id: ID, other: "k/b.md" }]]]]);
    expect(result.skipped[0]?.diagnostics[0]?.message.en).toBe(
      `id ${ID} is already used by k/b.md; skipped`,
    );
  });

  it("duplicate ids across letter case", () => {
    const result = parseBatch([entryFile("a.md", ID), entryFile("b.md", ID.toUpperCase())], {
      mode: "lenient",
    });
    expect(result.skipped.map((s) => s.diagnostics[0]?.code)).toEqual(["duplicate_id"]);
  });

  it("an id owned by another path in the index is a duplicate; the same path or a path of this batch is not", () => {
    const known = new Map([
      [ID, "k/old.md"],
      [ID2, "k/moved.md"],
    ]);
    const result = parseBatch([entryFile("k/new.md", ID), entryFile("k/moved.md", ID2)], {
      mode: "lenient",
      knownIds: known,
    });
    expect(result.skipped.map((s) => [s.path, s.diagnostics.at(-1)?.params])).toEqual([
      ["k/new.md", { id: ID, other: "k/old.md" }],
    ]);
    expect(result.entries.map((e) => e.path)).toEqual(["k/moved.md"]);

    const rewritten = parseBatch([entryFile("k/new.md", ID), entryFile("k/old.md", ID2)], {
      mode: "lenient",
      knownIds: new Map([[ID, "k/old.md"]]),
    });
    expect(rewritten.entries.map((e) => e.path)).toEqual(["k/new.md", "k/old.md"]);
  });

  it("over 10 MB: the rest is deferred, each file with a batch_limit diagnostic, never dropped", () => {
    const body = `${"word ".repeat(12_000)}\n`; // ~60 KB per file
    const files = Array.from({ length: 200 }, (_, i) => {
      const id = `0190f5a4-3b2c-7d10-8a11-${i.toString(16).padStart(12, "0")}`;
      return entryFile(`k/${String(i).padStart(3, "0")}.md`, id, body);
    });
    const size = files[0]?.bytes.byteLength ?? 0;
    const fit = Math.floor(LIMITS.batchBytes / size);
    const result = parseBatch(files, { mode: "lenient" });
    expect(result.entries).toHaveLength(fit);
    expect(result.deferred).toEqual(files.slice(fit).map((f) => f.path));
    expect(result.diagnostics.map((d) => [d.code, d.path])).toEqual(
      files.slice(fit).map((f) => ["batch_limit", f.path]),
    );
    expect(result.entries.length + result.skipped.length + result.deferred.length).toBe(
      files.length,
    );
    const next = parseBatch(
      files.filter((f) => result.deferred.includes(f.path)),
      { mode: "lenient" },
    );
    expect(next.deferred).toEqual([]);
    expect(next.entries).toHaveLength(200 - fit);
  });

  it("a file over 64 KB costs nothing toward the batch and is skipped", () => {
    const huge = { path: "huge.md", bytes: new Uint8Array(LIMITS.batchBytes + 1).fill(0x61) };
    const result = parseBatch([huge, entryFile("a.md", ID)], { mode: "lenient" });
    expect(result.skipped.map((s) => [s.path, s.diagnostics[0]?.code])).toEqual([
      ["huge.md", "file_too_large"],
    ]);
    expect(result.entries.map((e) => e.path)).toEqual(["a.md"]);
  });

  it("with `preparsed`, gives what it parses itself and leaves the given diagnostics alone", () => {
    const files = [
      entryFile("k/a.md", ID),
      { path: "k/bad.md", bytes: enc("---\nid: [broken\n---\n\nBody.\n") },
      entryFile("k/b.md", ID),
      entryFile("k/c.md", ID2),
    ];
    const knownIds = new Map([[ID2, "other:k/z.md"]]);
    const preparsed = files.map((f) => parseEntry(f.bytes, { mode: "lenient", path: f.path }));
    const copy = structuredClone(preparsed);
    expect(parseBatch(files, { mode: "lenient", knownIds, preparsed })).toEqual(
      parseBatch(files, { mode: "lenient", knownIds }),
    );
    expect(preparsed).toEqual(copy);
  });
});
