import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES, makeDiagnostic } from "./diagnostic.js";
import type { ParseResult } from "./entry.js";
import { escapeFileName, fileNameNotUtf8 } from "./file-name.js";
import { parseBatch } from "./parse-batch.js";
import { parseEntry } from "./parse-entry.js";

/** The outcome rule of the entry format: no throw; every file is parsed or has an error. */
function parsedOrDiagnosed(result: ParseResult): void {
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (result.value === undefined) expect(errors.length).toBeGreaterThan(0);
  else expect(errors).toEqual([]);
  for (const d of result.diagnostics) {
    expect(typeof d.message.en).toBe("string");
    expect(d.message.en).not.toMatch(/\{\w+\}/);
    expect(d.message.ru).not.toMatch(/\{\w+\}/);
  }
}

function check(input: Uint8Array | string): void {
  for (const mode of ["lenient", "strict"] as const) {
    parsedOrDiagnosed(parseEntry(input, { mode, path: "k/x.md" }));
  }
}

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const token = fc.constantFrom(
  "id",
  "origin",
  "contract",
  "links",
  "summary",
  "mechanism",
  "params",
  "words",
  "name",
  "on_query",
  "on_tool",
  "on_path",
  ID,
  "human",
  "agent",
  ":",
  ": ",
  "-",
  "- ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "[",
  "]",
  "{",
  "}",
  ",",
  "#",
  " #",
  "*a",
  "&a",
  "!t",
  "!!str",
  "?",
  "? ",
  "|",
  ">",
  "'",
  '"',
  "---",
  "...",
  "%YAML 1.2",
  "@",
  "`",
  "~",
  "null",
  "no",
  "2024-01-05",
  "0x1F",
  ".inf",
  "<<",
  "ё",
  "😀",
  "\0",
  "\uFEFF",
  "\\",
  "a",
  "1",
);
const yamlish = fc.array(token, { maxLength: 60 }).map((parts) => parts.join(""));
const body = fc.oneof(fc.constant(""), fc.constant("Body text.\n"), fc.string({ maxLength: 40 }));

describe("no input throws, hangs, or goes undiagnosed", () => {
  it("random bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => check(bytes)),
      { numRuns: 500 },
    );
  });

  it("random bytes after a valid start", () => {
    const head = new TextEncoder().encode(`---\nid: ${ID}\n`);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) =>
        check(new Uint8Array([...head, ...bytes])),
      ),
      { numRuns: 300 },
    );
  });

  it("random strings, any code point", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => check(text)),
      { numRuns: 300 },
    );
  });

  it("random YAML-ish frontmatters", () => {
    fc.assert(
      fc.property(yamlish, body, (yaml, rest) => check(`---\n${yaml}\n---\n\n${rest}`)),
      { numRuns: 1500 },
    );
  });

  it("random YAML-ish frontmatters after a valid id", () => {
    fc.assert(
      fc.property(yamlish, (yaml) => check(`---\nid: ${ID}\n${yaml}\n---\n\nBody.\n`)),
      { numRuns: 1500 },
    );
  });
});

describe("every diagnostic code", () => {
  it("is produced by some input, with both messages filled", () => {
    const head = `---\nid: ${ID}\n`;
    const big = `x${"а".repeat(300)}`;
    const inputs: (string | Uint8Array)[] = [
      new Uint8Array([0x2d, 0xff]),
      "---\n\0\n---\n",
      `\uFEFF${head}---\n\nBody.\n`,
      "text",
      "---\nid: x\n",
      `${head}a: [\n---\n\nB\n`,
      `${head}a: &a [*a]\n---\n\nB\n`,
      `${head}a: &s "${"x".repeat(40_000)}"\nb: [*s, *s]\n---\n\nB\n`,
      `${head}a: 1\na: 2\n---\n\nB\n`,
      "---\n- a\n---\n\nB\n",
      "---\n---\n\nB\n",
      "---\nid: nope\n---\n\nB\n",
      `${head}origin: robot\nlinks: [nope]\n---\n\nB\n`,
      `${head}contract:\n  - mechanism: on_query\n---\n\nB\n`,
      `${head}---\n\n`,
      `${head}sumary: x\npriority: 1\ncontract:\n  - mechanism: on_path\n---\n\nB\n`,
      `${head}summary: B\n---\n\nB\n`,
      `${head}summary: ${"я".repeat(300)}\n---\n\n${big}\n`,
      `${head}---\n\n${big}\n`,
      `${head}---\n\n***\n`,
      `${head}---\n\n${"x".repeat(70_000)}`,
      `${head}---\n\nReplace this line with the first complete thought — agents see it as the summary.\n`,
    ];
    const seen = new Set<string>();
    const all = inputs.flatMap(
      (input) => parseEntry(input, { mode: "lenient", path: "p.md" }).diagnostics,
    );
    const enc = new TextEncoder();
    const file = (path: string) => ({
      path,
      bytes: enc.encode(`${head}---\n\n${"w ".repeat(30_000)}\n`),
    });
    const batch = parseBatch(
      Array.from({ length: 180 }, (_, i) => file(`f${i}.md`)),
      { mode: "lenient" },
    );
    all.push(...batch.diagnostics, ...batch.skipped.flatMap((s) => s.diagnostics));
    // Found by the folder walk (check, folder indexing), not by the parser.
    all.push(fileNameNotUtf8(escapeFileName(new Uint8Array([0x63, 0xe9, 0x2e, 0x6d, 0x64]))));
    // `id_clash` comes from the index (two sources holding one id), never from a parse.
    all.push(makeDiagnostic("id_clash", { path: "p.md", params: { id: ID, other: "r:q.md" } }));
    // The secret guard's remarks come from the push scan (`services/push/scan-push.ts`).
    all.push(
      makeDiagnostic("possible_secret", {
        path: "p.md",
        line: 3,
        params: { rule: "@secretlint/secretlint-rule-github" },
      }),
      makeDiagnostic("possible_prompt_injection", {
        path: "p.md",
        line: 4,
        params: {
          what: "asks to ignore earlier instructions",
          what_ru: "просит забыть инструкции",
        },
      }),
    );
    for (const d of all) {
      seen.add(d.code);
      expect(d.message.en, d.code).not.toMatch(/\{\w+\}/);
      expect(d.message.ru, d.code).not.toMatch(/\{\w+\}/);
    }
    expect([...seen].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });
});
