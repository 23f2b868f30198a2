import { describe, expect, it } from "vitest";
import { makeDiagnostic } from "./diagnostic.js";
import { parseBatch } from "./parse-batch.js";
import { formatReport, mechanismLine } from "./parse-report.js";

const enc = (text: string) => new TextEncoder().encode(text);
const id = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;
const onPath = (n: number) => ({
  path: `k/p${n}.md`,
  bytes: enc(
    `---\nid: ${id(n)}\ncontract:\n  - mechanism: on_path\n    params: {glob: "*.ts"}\n---\n\nBody ${n}.\n`,
  ),
});

describe("formatReport", () => {
  it("a line per diagnostic and the seed's summary line per unknown mechanism", () => {
    const batch = parseBatch(
      [
        onPath(1),
        onPath(2),
        onPath(3),
        { path: "k/bad.md", bytes: enc("---\nid: nope\n---\n\nBody\n") },
      ],
      { mode: "lenient" },
    );
    expect(formatReport(batch, "en")).toEqual([
      "k/p1.md:3:1: mechanism “on_path” is not known to this version; the entry is unreachable until it is (contract[0].mechanism) [unknown_mechanism]",
      "k/p2.md:3:1: mechanism “on_path” is not known to this version; the entry is unreachable until it is (contract[0].mechanism) [unknown_mechanism]",
      "k/p3.md:3:1: mechanism “on_path” is not known to this version; the entry is unreachable until it is (contract[0].mechanism) [unknown_mechanism]",
      "k/bad.md:2:1: “nope” is not a UUIDv7; print a fresh one with `lore id` (id) [invalid_id]",
      "3 entries need mechanism “on_path”, which this version does not know",
    ]);
    const ru = formatReport(batch, "ru");
    expect(ru.at(-1)).toBe("3 записи требуют механизм „on_path“, которого эта версия не умеет");
    expect(ru[3]).toBe(
      "k/bad.md:2:1: «nope» — не UUIDv7; новый выдаст `lore id` (id) [invalid_id]",
    );
  });

  it("filters by severity and fills a missing path", () => {
    const lines = formatReport(
      {
        files: [
          {
            path: "a.md",
            diagnostics: [makeDiagnostic("no_contract"), makeDiagnostic("empty_body", { line: 4 })],
          },
        ],
        diagnostics: [makeDiagnostic("batch_limit", { path: "z.md", params: { limit: 10 } })],
        unmet: [["on_path", "on_path"], ["on_time"]],
      },
      "en",
      { minSeverity: "error" },
    );
    expect(lines).toEqual([
      "a.md:4: the body is empty; an entry needs text [empty_body]",
      "z.md: the batch is over 10 bytes; this file goes to the next batch [batch_limit]",
      "1 entry needs mechanism “on_path”, which this version does not know",
      "1 entry needs mechanism “on_time”, which this version does not know",
    ]);
  });

  it("Russian plural forms", () => {
    const forms = [1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111].map((n) =>
      mechanismLine("m", n, "ru"),
    );
    expect(forms.map((line) => line.split(" механизм")[0])).toEqual([
      "1 запись требует",
      "2 записи требуют",
      "4 записи требуют",
      "5 записей требуют",
      "11 записей требуют",
      "12 записей требуют",
      "14 записей требуют",
      "21 запись требует",
      "22 записи требуют",
      "25 записей требуют",
      "101 запись требует",
      "111 записей требуют",
    ]);
    expect(mechanismLine("on_path", 1, "en")).toBe(
      "1 entry needs mechanism “on_path”, which this version does not know",
    );
  });
});
