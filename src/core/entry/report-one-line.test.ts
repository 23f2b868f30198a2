import { describe, expect, it } from "vitest";
import { formatDiagnosticLine, makeDiagnostic, reportPath } from "./diagnostic.js";
import { parseBatch } from "./parse-batch.js";
import { formatReport } from "./parse-report.js";

/**
 * Defect D: a file name holding a newline or another control character must not break the
 * report's one-line-per-problem format (seed 004, "Отчёт разбора").
 */

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("report lines stay one line", () => {
  it("quotes a path with a newline JSON-style", () => {
    const line = formatDiagnosticLine(
      makeDiagnostic("empty_body", { path: "k/a\nb.md", line: 4 }),
      "en",
    );
    const message = makeDiagnostic("empty_body").message.en;
    expect(line).toBe(`"k/a\\nb.md":4: ${message} [empty_body]`);
    expect(line.split("\n")).toHaveLength(1);
  });

  it("reportPath: plain paths unchanged; control characters, separators and a leading quote escaped", () => {
    expect(reportPath(".gitriver/knowledge/ёлка 1.md")).toBe(".gitriver/knowledge/ёлка 1.md");
    expect(reportPath("a\r\nb.md")).toBe('"a\\r\\nb.md"');
    expect(reportPath("x\u001b[31m.md")).toBe('"x\\u001b[31m.md"');
    expect(reportPath("x\u0085\u2028y\t.md")).toBe('"x\\u0085\\u2028y\\t.md"');
    expect(reportPath('"q".md')).toBe('"\\"q\\".md"');
    expect(reportPath("back\\slash\n")).toBe('"back\\\\slash\\n"');
  });

  it("a batch with such files gives one line per problem, and unknown mechanism names stay on one line", () => {
    const files = [
      { path: "k/bad\nname.md", bytes: bytes("no frontmatter\n") },
      {
        path: "k/tab\tand\u001b.md",
        bytes: bytes(
          `---\nid: ${ID}\ncontract:\n  - mechanism: "on\\npath"\n    params: {}\n---\n\nBody.\n`,
        ),
      },
    ];
    const lines = formatReport(parseBatch(files, { mode: "lenient" }), "en");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      for (const char of ["\n", "\r", "\u001b"]) expect(line).not.toContain(char);
    }
    expect(lines.some((l) => l.startsWith('"k/bad\\nname.md"'))).toBe(true);
    expect(lines.some((l) => l.startsWith('"k/tab\\tand\\u001b.md"'))).toBe(true);
    expect(lines.at(-1)).toBe(
      "1 entry needs mechanism “on\\npath”, which this version does not know",
    );
  });
});
