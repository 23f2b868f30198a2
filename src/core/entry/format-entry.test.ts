import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoreError } from "../errors/lore-error.js";
import { type ContractClause, type Entry, KNOWN_KEYS } from "./entry.js";
import { findControlCharacter } from "./field-diagnostic.js";
import { formatEntry } from "./format-entry.js";
import { parseEntry } from "./parse-entry.js";
import { normalizeBody } from "./yaml-frontmatter.js";

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

const base: Entry = {
  id: ID,
  contract: [
    { mechanism: "on_query", params: { words: ["развёртывание", "откат"] } },
    { mechanism: "on_tool", params: { name: "run_migration" } },
  ],
  origin: "agent",
  links: [ID2],
  unknownKeys: {},
  body: "Первая законченная мысль.\n\nДальше — обоснование.\n",
};

describe("formatEntry", () => {
  it("writes the stable layout", () => {
    expect(
      formatEntry({ ...base, summary: "Короткий фрагмент", unknownKeys: { z_new: [1, "no"] } }),
    ).toBe(
      [
        "---",
        `id: ${ID}`,
        "origin: agent",
        "contract:",
        "  - mechanism: on_query",
        "    params:",
        "      words:",
        "        - развёртывание",
        "        - откат",
        "  - mechanism: on_tool",
        "    params:",
        "      name: run_migration",
        "links:",
        `  - ${ID2}`,
        "summary: Короткий фрагмент",
        "z_new:",
        "  - 1",
        "  - 'no'",
        "---",
        "",
        "Первая законченная мысль.",
        "",
        "Дальше — обоснование.",
        "",
      ].join("\n"),
    );
  });

  it("omits empty links and an absent summary, keeps origin and an empty contract", () => {
    const text = formatEntry({ ...base, contract: [], links: [], body: "Text" });
    expect(text).toBe(`---\nid: ${ID}\norigin: agent\ncontract: []\n---\n\nText\n`);
  });

  it("quotes strings other YAML readers would coerce", () => {
    const text = formatEntry({
      ...base,
      contract: [
        {
          mechanism: "on_query",
          params: { words: ["2024-01-05", "no", "on", "*x", "#c", ": x", "---"] },
        },
      ],
    });
    expect(text).toContain("- '2024-01-05'\n");
    expect(text).toContain("- 'no'\n");
    expect(text).toContain("- '*x'\n");
    expect(text).toContain("- '#c'\n");
    expect(text).toContain("- '---'\n");
  });

  it("refuses a known key among the unknown keys", () => {
    expect(() => formatEntry({ ...base, unknownKeys: { summary: "x" } })).toThrow(LoreError);
  });
});

const special = fc.constantFrom(
  "no",
  "on",
  "yes",
  "off",
  "null",
  "~",
  "true",
  "2024-01-05",
  "2024-01-05T10:00:00Z",
  "1e3",
  "0x1F",
  "012",
  ".inf",
  "<<",
  "=",
  "*x",
  "&a",
  "!t",
  "%c",
  "@a",
  "`b",
  "#c",
  "a #b",
  ": x",
  "a: b",
  "-",
  "?",
  "---",
  "...",
  "'",
  '"',
  "|",
  ">",
  "\t",
  " lead",
  "trail ",
  "multi\nline",
  "x\n\n y \n",
  "\u2028",
  "\u0085",
  "\uFEFF",
  "ёлка",
  "Развёртывание",
  "😀",
  "👨‍👩‍👧‍👦",
  "é",
  "e\u0301",
);
const text = fc.oneof(
  special,
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom("а", "б", "ё", "Я", " ", "-", ":", "#", "*", "\n", "'", '"'),
    maxLength: 12,
  }),
);
const nonBlank = text.filter((s) => s.trim() !== "");
/** A displayed value (summary, on_query word, on_tool name): no control character but TAB/LF. */
const displayed = nonBlank.filter((s) => findControlCharacter(s) === undefined);
const uuid7 = fc.uuid({ version: 7 });
const yamlValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: false }),
    text,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(text, tie("value"), { maxKeys: 3 }),
  ),
})).value;
const clause: fc.Arbitrary<ContractClause> = fc.oneof(
  fc.record({
    mechanism: fc.constant("on_query"),
    params: fc.record({ words: fc.array(displayed, { minLength: 1, maxLength: 4 }) }),
  }),
  fc.record({ mechanism: fc.constant("on_tool"), params: fc.record({ name: displayed }) }),
  fc.record({
    mechanism: nonBlank.filter((m) => m !== "on_query" && m !== "on_tool"),
    params: fc.dictionary(text, yamlValue, { maxKeys: 3 }),
  }),
);
const entry: fc.Arbitrary<Entry> = fc.record(
  {
    id: uuid7,
    contract: fc.array(clause, { maxLength: 3 }),
    origin: fc.constantFrom("human", "agent"),
    links: fc.array(uuid7, { maxLength: 3 }),
    summary: displayed,
    unknownKeys: fc.dictionary(
      text.filter((k) => !(KNOWN_KEYS as readonly string[]).includes(k)),
      yamlValue,
      { maxKeys: 3 },
    ),
    body: fc
      .oneof(text, fc.string({ unit: "grapheme", maxLength: 300 }))
      .map((b) => normalizeBody(`${b}\nBody`.replace(/\0/g, ""))),
  },
  { requiredKeys: ["id", "contract", "origin", "links", "unknownKeys", "body"] },
);

describe("round trip (STYLE.md habit 9)", () => {
  it("parseEntry(formatEntry(e)) = e on the model, and formatting is stable", () => {
    fc.assert(
      fc.property(entry, (e) => {
        const file = formatEntry(e);
        const result = parseEntry(file, { mode: "lenient" });
        expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        expect(result.value?.entry).toEqual(e);
        expect(file).not.toContain("\r");
        expect(file.endsWith("\n") && !file.endsWith("\n\n")).toBe(true);
        if (result.value !== undefined) expect(formatEntry(result.value.entry)).toBe(file);
      }),
      { numRuns: 400 },
    );
  });
});
