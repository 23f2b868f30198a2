import { describe, expect, it } from "vitest";
import type { Diagnostic } from "./diagnostic.js";
import { formatEntry } from "./format-entry.js";
import { parseEntry } from "./parse-entry.js";

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const ID2 = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

const file = (head: string, body = "Body text.\n") => `---\n${head}\n---\n\n${body}`;
const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.code);
const lenient = (input: string | Uint8Array) =>
  parseEntry(input, { mode: "lenient", path: "k/a.md" });
const strict = (input: string | Uint8Array) =>
  parseEntry(input, { mode: "strict", path: "k/a.md" });

describe("parseEntry: a valid entry", () => {
  it("reads the seed's full example", () => {
    const text = [
      "---",
      "id: 0192ec1a-7b1a-7def-abcd-0987654321fe",
      "origin: human",
      "contract:",
      "  - mechanism: on_query",
      "    params:",
      '      words: ["миграция", "sqlx"]',
      "summary: Подготовка базы перед sqlx migrate — иначе миграции падают на правах",
      "---",
      "",
      "Миграции sqlx требуют владельца схемы, а не суперпользователя.",
      "",
      "Миграция, применённая под суперпользователем, создаёт объекты от его имени.",
      "",
    ].join("\n");
    const result = strict(text);
    expect(result.diagnostics).toEqual([]);
    expect(result.value).toEqual({
      entry: {
        id: "0192ec1a-7b1a-7def-abcd-0987654321fe",
        origin: "human",
        contract: [{ mechanism: "on_query", params: { words: ["миграция", "sqlx"] } }],
        links: [],
        summary: "Подготовка базы перед sqlx migrate — иначе миграции падают на правах",
        unknownKeys: {},
        body: "Миграции sqlx требуют владельца схемы, а не суперпользователя.\n\nМиграция, применённая под суперпользователем, создаёт объекты от его имени.\n",
      },
      summary: "Подготовка базы перед sqlx migrate — иначе миграции падают на правах",
      reachable: true,
      unmetMechanisms: [],
    });
  });

  it("defaults origin to agent, reads on_tool and links, derives the summary", () => {
    const result = lenient(
      file(
        `id: ${ID}\ncontract:\n  - mechanism: on_tool\n    params:\n      name: run_migration\nlinks:\n  - ${ID2}`,
        "First thought.\n\nMore.\n",
      ),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.value?.entry.origin).toBe("agent");
    expect(result.value?.entry.links).toEqual([ID2]);
    expect(result.value?.summary).toBe("First thought.");
    expect(result.value?.reachable).toBe(true);
  });

  it("case 1: words [release, 2024-01-05, no, on] stay four strings", () => {
    const result = strict(
      file(
        `id: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [release, 2024-01-05, no, on]`,
      ),
    );
    expect(result.value?.entry.contract[0]?.params.words).toStrictEqual([
      "release",
      "2024-01-05",
      "no",
      "on",
    ]);
  });

  it("holds ids and links in lower case", () => {
    const result = lenient(file(`id: ${ID.toUpperCase()}\nlinks: [${ID2.toUpperCase()}]`));
    expect(result.value?.entry.id).toBe(ID);
    expect(result.value?.entry.links).toEqual([ID2]);
  });

  it("reads a known key with no value as absent", () => {
    const result = lenient(file(`id: ${ID}\norigin:\ncontract:\nlinks:\nsummary:`));
    expect(result.value?.entry).toMatchObject({ origin: "agent", contract: [], links: [] });
    expect(result.value?.entry.summary).toBeUndefined();
  });
});

describe("parseEntry: case 2, CRLF", () => {
  it("parses a CRLF file exactly like its LF twin", () => {
    const lf = file(
      `id: ${ID}\nsummary: "two\\nlines"\ncontract:\n  - mechanism: on_query\n    params:\n      words: [a, b]\nx_note: |\n  kept\n  block`,
      "First paragraph\nstill first.\n\nSecond paragraph.\n",
    );
    const crlf = lf.replace(/\n/g, "\r\n");
    const a = lenient(lf);
    const b = lenient(crlf);
    expect(b).toEqual(a);
    expect(JSON.stringify(b.value)).not.toContain("\\r");
    expect(b.value?.entry.unknownKeys).toEqual({ x_note: "kept\nblock\n" });
    expect(b.value?.entry.body).toBe("First paragraph\nstill first.\n\nSecond paragraph.\n");
  });

  it("derives the summary from the first paragraph only", () => {
    const crlf = `---\r\nid: ${ID}\r\n---\r\n\r\nFirst paragraph\r\nstill first.\r\n\r\nSecond.\r\n`;
    expect(lenient(crlf).value?.summary).toBe("First paragraph still first.");
  });
});

describe("parseEntry: case 3, `**Team letterhead**`", () => {
  it("skips the file with path, line and reason", () => {
    const result = lenient("---\n**Team letterhead**\n---\n\nBody.\n");
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({
      code: "yaml_syntax",
      severity: "error",
      path: "k/a.md",
      line: 2,
      column: 7,
    });
    expect(result.diagnostics[0]?.message.en).toContain('unidentified alias "*Team"');
    expect(result.diagnostics[0]?.message.en).toContain("quotes");
    expect(result.diagnostics[0]?.message.ru).toContain("кавычки");
  });
});

describe("parseEntry: case 4, unknown keys", () => {
  const text = file(
    `id: ${ID}\nsumary: Short\nLinks:\n  - ${ID2}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [deploy]`,
  );

  it("strict: refused, listing both keys with their suggestions", () => {
    const result = strict(text);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.params, d.line])).toEqual([
      ["unknown_key", "error", { key: "sumary", nearest: "summary" }, 3],
      ["unknown_key", "error", { key: "Links", nearest: "links" }, 4],
    ]);
    expect(result.diagnostics[0]?.message.en).toBe(
      "key “sumary” is not known, the nearest known is “summary”",
    );
    expect(result.diagnostics[1]?.message.ru).toBe(
      "ключ „Links“ не известен, ближайший известный — „links“",
    );
  });

  it("lenient: kept, unreachable, unknown keys preserved on re-serialisation", () => {
    const result = lenient(text);
    expect(codes(result.diagnostics)).toEqual(["unknown_key", "unknown_key"]);
    expect(result.diagnostics.every((d) => d.severity === "warning")).toBe(true);
    const value = result.value;
    expect(value?.reachable).toBe(false);
    expect(value?.entry.unknownKeys).toEqual({ sumary: "Short", Links: [ID2] });
    if (value === undefined) throw new Error("no value");
    const again = formatEntry(value.entry);
    expect(again).toContain("sumary: Short\n");
    expect(again).toContain(`Links:\n  - ${ID2}\n`);
    expect(lenient(again).value?.entry).toEqual(value.entry);
  });

  it("says when no known key is similar", () => {
    const result = lenient(file(`id: ${ID}\npriority: 3`));
    expect(codes(result.diagnostics)).toEqual(["no_contract", "unknown_key"]);
    expect(result.diagnostics[1]?.params).toEqual({ key: "priority" });
    expect(result.diagnostics[1]?.message.en).toBe(
      "key “priority” is not known and no known key is similar: the file may be newer than this version",
    );
    expect(result.diagnostics[1]?.message.ru).toBe(
      "ключ „priority“ не известен, похожих нет — файл, видимо, новее этой версии",
    );
  });

  it("shortens a huge unknown key in messages and suggests nothing", () => {
    const key = "k".repeat(10_000);
    const result = lenient(file(`id: ${ID}\n${key}: 1`));
    const diagnostic = result.diagnostics.find((d) => d.code === "unknown_key");
    expect(String(diagnostic?.params.key).length).toBe(80);
    expect(diagnostic?.params.nearest).toBeUndefined();
    expect(Object.keys(result.value?.entry.unknownKeys ?? {})).toEqual([key]);
  });

  it("keeps a key named __proto__ as data", () => {
    const result = lenient(file(`id: ${ID}\n__proto__: {polluted: true}`));
    expect(Object.hasOwn(result.value?.entry.unknownKeys ?? {}, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("parseEntry: mechanisms", () => {
  it("keeps an unknown mechanism as written; the entry is unreachable", () => {
    const result = lenient(
      file(
        `id: ${ID}\ncontract:\n  - mechanism: on_path\n    params:\n      glob: "src/**"\n  - mechanism: on_query\n    params:\n      words: [x]`,
      ),
    );
    expect(codes(result.diagnostics)).toEqual(["unknown_mechanism"]);
    expect(result.diagnostics[0]).toMatchObject({ at: "contract[0].mechanism", line: 3 });
    expect(result.value?.entry.contract[0]).toEqual({
      mechanism: "on_path",
      params: { glob: "src/**" },
    });
    expect(result.value?.unmetMechanisms).toEqual(["on_path"]);
    expect(result.value?.reachable).toBe(false);
    expect(strict(file(`id: ${ID}\ncontract:\n  - mechanism: on_path`)).value).toBeUndefined();
  });

  it("refuses wrong params of a known mechanism", () => {
    const cases: [string, string][] = [
      ["on_query", "{}"],
      ["on_query", "{words: []}"],
      ["on_query", "{words: deploy}"],
      ["on_query", "{words: [ok, '  ']}"],
      ["on_query", "{words: [2024]}"],
      ["on_tool", "{}"],
      ["on_tool", "{name: ''}"],
      ["on_tool", "{name: 12}"],
    ];
    for (const [mechanism, params] of cases) {
      const result = lenient(
        file(`id: ${ID}\ncontract:\n  - mechanism: ${mechanism}\n    params: ${params}`),
      );
      expect(result.value, params).toBeUndefined();
      expect(codes(result.diagnostics), params).toEqual(["invalid_mechanism_params"]);
    }
  });

  it("tells to quote a number", () => {
    const result = lenient(
      file(`id: ${ID}\ncontract:\n  - mechanism: on_query\n    params: {words: [2024]}`),
    );
    expect(result.diagnostics[0]?.message.en).toBe(
      'mechanism “on_query” needs `params.words`: a non-empty list of non-empty strings — item 1 is read as a number; quote it: "2024"',
    );
    expect(result.diagnostics[0]?.at).toBe("contract[0].params.words[0]");
  });

  it("an extra param of a known mechanism is not understood: kept, unreachable", () => {
    const result = lenient(
      file(
        `id: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [a]\n      keywords: [b]`,
      ),
    );
    expect(result.diagnostics.map((d) => [d.code, d.at, d.params])).toEqual([
      ["unknown_key", "contract[0].params.keywords", { key: "keywords", nearest: "words" }],
    ]);
    expect(result.value?.entry.contract[0]?.params).toEqual({ words: ["a"], keywords: ["b"] });
    expect(result.value?.reachable).toBe(false);
  });

  it("refuses a clause that is not a mapping, lacks a mechanism, or has other keys", () => {
    for (const clause of [
      "- on_query",
      "- {params: {}}",
      "- {mechanism: on_tool, params: {name: x}, weight: 2}",
      "- {mechanism: on_tool, params: [x]}",
    ]) {
      const result = lenient(file(`id: ${ID}\ncontract:\n  ${clause}`));
      expect(result.value, clause).toBeUndefined();
      expect(codes(result.diagnostics), clause).toEqual(["invalid_field"]);
    }
  });
});

describe("parseEntry: wrong fields", () => {
  it.each([
    ["missing id", "origin: human", "missing_id"],
    ["id not a UUIDv7", "id: 0190f5a4-3b2c-4d10-8a11-2b3c4d5e6f70", "invalid_id"],
    ["id a number", "id: 12", "invalid_id"],
    ["origin other", `id: ${ID}\norigin: robot`, "invalid_field"],
    ["contract a string", `id: ${ID}\ncontract: on_query`, "invalid_field"],
    ["links a string", `id: ${ID}\nlinks: ${ID2}`, "invalid_field"],
    ["summary a list", `id: ${ID}\nsummary: [a]`, "invalid_field"],
    ["summary blank", `id: ${ID}\nsummary: "  "`, "invalid_field"],
  ])("%s → %s", (_name, head, code) => {
    const result = lenient(file(head));
    expect(result.value).toBeUndefined();
    expect(codes(result.diagnostics)).toContain(code);
  });

  it("gives the expected phrase in both languages", () => {
    const result = lenient(file(`id: ${ID}\norigin: robot`));
    expect(result.diagnostics[0]).toMatchObject({ line: 3, column: 1, at: "origin" });
    expect(result.diagnostics[0]?.message.en).toBe("“origin” must be `human` or `agent`");
    expect(result.diagnostics[0]?.message.ru).toBe("«origin» должен быть `human` или `agent`");
  });

  it("case 8: the UUIDv7 rule for every element of links", () => {
    const result = lenient(
      file(
        `id: ${ID}\nlinks:\n  - 01a00000-0000-7000-8000-000000000001\n  - 0190f5a4-3b2c-4d10-8a11-2b3c4d5e6f70\n  - 0190f5a4-3b2c-7d10-da11-2b3c4d5e6f70\n  - 00000000-0000-0000-0000-000000000000\n  - ffffffff-ffff-ffff-ffff-ffffffffffff\n  - 0190f5a43b2c7d108a112b3c4d5e6f70\n  - "{0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70}"`,
      ),
    );
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.at])).toEqual(
      [1, 2, 3, 4, 5, 6].map((i) => ["invalid_link", `links[${i}]`]),
    );
  });

  it("reports every wrong field at once", () => {
    const result = lenient(file("id: nope\norigin: robot\nlinks: [x]", "  \n"));
    expect(codes(result.diagnostics).sort()).toEqual([
      "empty_body",
      "invalid_field",
      "invalid_id",
      "invalid_link",
    ]);
  });
});

describe("parseEntry: body, summary and contract notes", () => {
  it("refuses an empty body", () => {
    const result = lenient(`---\nid: ${ID}\n---\n \n\t\n`);
    expect(result.value).toBeUndefined();
    expect(codes(result.diagnostics)).toEqual(["empty_body"]);
  });

  it("notes an entry with no contract; it is unreachable but kept", () => {
    const result = strict(file(`id: ${ID}`));
    expect(codes(result.diagnostics)).toEqual(["no_contract"]);
    expect(result.value?.reachable).toBe(false);
  });

  it("uses the derived summary when the override repeats it", () => {
    const result = lenient(file(`id: ${ID}\nsummary: "Body   text."`));
    expect(codes(result.diagnostics)).toEqual(["no_contract", "summary_repeats_body"]);
    expect(result.value?.summary).toBe("Body text.");
    expect(result.value?.entry.summary).toBe("Body   text.");
  });

  it("case 5 through the parser: summary at the cap is noted", () => {
    const result = lenient(file(`id: ${ID}`, `x${"а".repeat(300)}\n`));
    expect(result.value?.summary).toBe(`x${"а".repeat(255)}`);
    const note = result.diagnostics.find((d) => d.code === "summary_at_cap");
    expect(note).toMatchObject({ severity: "info", line: 5 });
  });

  it("notes a summary empty in meaning", () => {
    const result = lenient(file(`id: ${ID}`, "***\n\nText.\n"));
    expect(codes(result.diagnostics)).toContain("summary_empty");
  });
});

describe("parseEntry: case 11", () => {
  const twin = file(`id: ${ID}\ncontract:\n  - mechanism: on_tool\n    params: {name: t}`);

  it("a UTF-8 BOM parses as if absent", () => {
    const bytes = new TextEncoder().encode(twin);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]);
    const plain = lenient(bytes);
    const bom = lenient(withBom);
    expect(bom.value).toEqual(plain.value);
    expect(bom.diagnostics.filter((d) => d.code !== "bom_removed")).toEqual(plain.diagnostics);
    expect(lenient(`\uFEFF${twin}`).value).toEqual(plain.value);
  });

  it("a `---` thematic break in the body stays in the body", () => {
    const result = lenient(`---\nid: ${ID}\n---\n\nAbove.\n\n---\n\nBelow.\n`);
    expect(result.value?.entry.body).toBe("Above.\n\n---\n\nBelow.\n");
  });

  it("a duplicate key: skipped with key and line on read, refused on write, never last-wins", () => {
    const text = file(`id: ${ID}\nsummary: first\norigin: human\nsummary: second`);
    for (const result of [lenient(text), strict(text)]) {
      expect(result.value).toBeUndefined();
      expect(result.diagnostics).toHaveLength(1);
      expect(result.diagnostics[0]).toMatchObject({
        code: "duplicate_key",
        severity: "error",
        line: 5,
        params: { key: "summary" },
      });
      expect(result.diagnostics[0]?.message.en).toBe(
        "key “summary” appears twice; refused (never last-wins)",
      );
    }
  });

  it("`- #hooks` reads as an empty item: diagnostic at words[0] with the hint to quote it", () => {
    const result = lenient(
      file(
        `id: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words:\n        - #hooks\n        - git`,
      ),
    );
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toHaveLength(1);
    const diagnostic = result.diagnostics[0];
    expect(diagnostic).toMatchObject({
      code: "invalid_mechanism_params",
      at: "contract[0].params.words[0]",
      line: 7,
    });
    expect(diagnostic?.message.en).toContain('quote it: `- "#hooks"`');
    expect(diagnostic?.message.ru).toContain("возьмите его в кавычки");
  });
});

describe("parseEntry: limits", () => {
  it("refuses a file over 64 KB by its bytes", () => {
    const head = `---\nid: ${ID}\n---\n\n`;
    const fits = head + "я".repeat((65536 - head.length) / 2);
    expect(new TextEncoder().encode(fits).length).toBe(65536);
    expect(lenient(fits).value).toBeDefined();
    const over = `${fits}x`;
    const result = lenient(over);
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.params])).toEqual([
      ["file_too_large", { size: 65537, limit: 65536 }],
    ]);
    expect(lenient(new TextEncoder().encode(over)).diagnostics[0]?.code).toBe("file_too_large");
  });
});
