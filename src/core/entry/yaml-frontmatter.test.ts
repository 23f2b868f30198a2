import { describe, expect, it } from "vitest";
import type { Diagnostic } from "./diagnostic.js";
import { createFrontmatterLocator } from "./frontmatter-locator.js";
import { parseEntry } from "./parse-entry.js";
import {
  loadFrontmatter,
  normalizeBody,
  readEntryFile,
  splitFrontmatter,
  YAML_LIMITS,
} from "./yaml-frontmatter.js";

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const enc = (text: string) => new TextEncoder().encode(text);
const only = (diagnostics: Diagnostic[]) =>
  diagnostics.map((d) => [d.code, d.line ?? null, d.params]);

/** Every bad input of the entry format: a diagnostic, never a throw, never a hang. */
describe("bad input", () => {
  it("not UTF-8: byte offset of the first bad byte", () => {
    const bytes = new Uint8Array([...enc(`---\nid: ${ID}\n---\n\nab`), 0xc3, 0x28]);
    const result = parseEntry(bytes, { mode: "lenient", path: "x.md" });
    expect(result.value).toBeUndefined();
    expect(only(result.diagnostics)).toEqual([["not_utf8", 5, { offset: bytes.length - 2 }]]);
    expect(result.diagnostics[0]?.message.en).toBe(
      `the file is not valid UTF-8 (byte ${bytes.length - 2})`,
    );
  });

  it("a lone surrogate in a string input is not UTF-8", () => {
    const result = parseEntry(`---\nid: ${ID}\n---\n\nab\uD800`, { mode: "lenient" });
    expect(result.diagnostics.map((d) => d.code)).toEqual(["not_utf8"]);
  });

  it("a NUL byte: offset and line", () => {
    const text = `---\nid: ${ID}\n---\n\nab\0c\n`;
    for (const input of [text, enc(text)]) {
      const result = parseEntry(input, { mode: "lenient" });
      expect(result.value).toBeUndefined();
      expect(only(result.diagnostics)).toEqual([["nul_byte", 5, { offset: text.indexOf("\0") }]]);
    }
  });

  it("a BOM is dropped with a note", () => {
    const result = readEntryFile(
      new Uint8Array([0xef, 0xbb, 0xbf, ...enc(`---\nid: ${ID}\n---\nB\n`)]),
    );
    expect(result.frontmatter).toEqual({ id: ID });
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([["bom_removed", "info"]]);
  });

  it("CRLF and lone CR become LF before anything", () => {
    const result = readEntryFile(`---\r\nid: ${ID}\r\nsummary: "a"\r---\r\n\r\nBody\r\nline\r\n`);
    expect(result.frontmatter).toEqual({ id: ID, summary: "a" });
    expect(result.parts?.body).toBe("Body\nline\n");
  });

  it("no frontmatter", () => {
    for (const text of [
      "",
      "Just text\n",
      "\n---\nid: x\n---\n",
      "--- id: x\n---\n",
      "----\n---\n",
    ]) {
      expect(only(readEntryFile(text).diagnostics), JSON.stringify(text)).toEqual([
        ["no_frontmatter", 1, {}],
      ]);
    }
  });

  it("an unterminated fence", () => {
    for (const text of ["---", "---\n", `---\nid: ${ID}\n`, `---\nid: ${ID}\n ---\n`]) {
      expect(only(readEntryFile(text).diagnostics), JSON.stringify(text)).toEqual([
        ["unterminated_frontmatter", 1, {}],
      ]);
    }
  });

  it("`---` inside the body stays in the body; fences may have trailing blanks", () => {
    expect(splitFrontmatter("--- \na: 1\n---\t\n\n\nText\n---\nmore\n---\n")).toEqual({
      yaml: "a: 1\n",
      body: "Text\n---\nmore\n---\n",
      bodyLine: 6,
    });
  });

  it("an empty frontmatter is a mapping without id", () => {
    expect(readEntryFile("---\n---\nBody\n").frontmatter).toEqual({});
    expect(readEntryFile("---\n# only a comment\n---\nBody\n").frontmatter).toEqual({});
    const result = parseEntry("---\n---\n\nBody\n", { mode: "lenient" });
    expect(result.diagnostics.map((d) => d.code)).toEqual(["missing_id"]);
  });

  it("a list or a scalar frontmatter", () => {
    expect(only(loadFrontmatter("- a\n- b\n").diagnostics)).toEqual([
      ["frontmatter_not_mapping", 2, { kind: "list", kind_ru: "список" }],
    ]);
    const scalar = loadFrontmatter("just words\n").diagnostics;
    expect(only(scalar)).toEqual([
      ["frontmatter_not_mapping", 2, { kind: "scalar", kind_ru: "скаляр" }],
    ]);
    expect(scalar[0]?.message).toEqual({
      en: "the frontmatter is a scalar, not a mapping of keys",
      ru: "заголовок — скаляр, а не набор ключей",
    });
  });

  it("tabs in indentation: yaml_syntax with the reason, line and column", () => {
    const result = loadFrontmatter(`id: ${ID}\ncontract:\n\t- mechanism: on_query\n`);
    expect(result.diagnostics[0]).toMatchObject({ code: "yaml_syntax", line: 4, column: 1 });
    expect(result.diagnostics[0]?.message.en).toBe(
      "YAML error: tab characters must not be used in indentation — YAML indents with spaces only",
    );
    expect(result.diagnostics[0]?.message.ru).toBe(
      "ошибка YAML: в отступе символ табуляции — YAML допускает в отступах только пробелы",
    );
  });

  it("duplicate keys, at any depth, with the key and line", () => {
    expect(only(loadFrontmatter("a: 1\nb: 2\na: 3\n").diagnostics)).toEqual([
      ["duplicate_key", 4, { key: "a" }],
    ]);
    expect(only(loadFrontmatter("c:\n  - mechanism: x\n    mechanism: y\n").diagnostics)).toEqual([
      ["duplicate_key", 4, { key: "mechanism" }],
    ]);
    expect(only(loadFrontmatter("'x': 1\n\"x\": 2\n").diagnostics)).toEqual([
      ["duplicate_key", 3, { key: "x" }],
    ]);
    expect(only(loadFrontmatter("a: {b: 1, b: 2}\n").diagnostics)).toEqual([
      ["duplicate_key", 2, { key: "b" }],
    ]);
  });

  it("an exponential alias bomb: refused by its expanded size, quickly", () => {
    let yaml = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    for (let i = 1; i < 10; i++)
      yaml += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(",")}]\n`;
    const result = parseEntry(`---\nid: ${ID}\n${yaml}---\n\nBody\n`, { mode: "lenient" });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.params.limit])).toEqual([
      ["frontmatter_too_large", 65_536],
    ]);
    expect(result.diagnostics[0]?.message).toEqual({
      en: "the frontmatter expands to more than 65536 bytes once its YAML aliases are followed (the entry file limit); write the text out or shorten it",
      ru: "заголовок разворачивается больше чем в 65536 байт, если раскрыть ссылки YAML (предел файла записи); напишите текст без ссылок или сократите его",
    });
  });

  it("a 50 KB entry repeating a large string through aliases: frontmatter_too_large", () => {
    // 45,000 bytes of text, then 16 × 16 × 16 aliases of it: 184 MB if expanded.
    let yaml = `summary: &s "${"x".repeat(45_000)}"\n`;
    yaml += `a: &a [${Array(16).fill("*s").join(", ")}]\n`;
    yaml += `b: &b [${Array(16).fill("*a").join(", ")}]\n`;
    yaml += `c: [${Array(16).fill("*b").join(", ")}]\n`;
    const text = `---\nid: ${ID}\n${yaml}---\n\nBody\n`;
    expect(text.length).toBeGreaterThan(45_000);
    expect(text.length).toBeLessThan(50 * 1024);
    const result = parseEntry(text, { mode: "lenient", path: "bomb.md" });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.severity, d.path, d.line])).toEqual([
      ["frontmatter_too_large", "error", "bomb.md", 2],
    ]);
  });

  it("one alias of a large string passes; two that go over 64 KB do not", () => {
    const s = "y".repeat(30_000);
    expect(loadFrontmatter(`a: &s "${s}"\nb: *s\n`).diagnostics).toEqual([]);
    expect(loadFrontmatter(`a: &s "${s}"\nb: [*s, *s]\n`).diagnostics.map((d) => d.code)).toEqual([
      "frontmatter_too_large",
    ]);
    // Keys count too: a complex key made of aliases is one long string once loaded.
    expect(
      loadFrontmatter(`a: &s "${"z".repeat(20_000)}"\n? [*s, *s, *s]\n: 1\n`).diagnostics.map(
        (d) => d.code,
      ),
    ).toEqual(["frontmatter_too_large"]);
  });

  it("a 60 KB frontmatter without aliases is not refused for its size", () => {
    const yaml = Array.from({ length: 600 }, (_, i) => `k${i}: "${"v".repeat(95)}"`).join("\n");
    expect(yaml.length).toBeGreaterThan(60_000);
    expect(loadFrontmatter(`${yaml}\n`).diagnostics).toEqual([]);
  });

  it("many aliases (a huge key expansion) are refused before loading", () => {
    const yaml = `a: &s "${"x".repeat(30_000)}"\n? [${Array(5_000).fill("*s").join(",")}]\n: 1\n`;
    const result = loadFrontmatter(yaml);
    expect(result.diagnostics.map((d) => [d.code, d.params.reason])).toEqual([
      ["yaml_alias_limit", `more than ${YAML_LIMITS.aliases} aliases`],
    ]);
  });

  it("a recursive alias is refused", () => {
    for (const yaml of ["a: &a [*a]\n", "a: &a {b: *a}\n"]) {
      expect(loadFrontmatter(yaml).diagnostics.map((d) => [d.code, d.params.reason])).toEqual([
        ["yaml_alias_limit", "an alias refers to a node that contains it"],
      ]);
    }
  });

  it("a few plain aliases are fine", () => {
    expect(loadFrontmatter("x: &w [a, b]\ny: *w\n")).toEqual({
      value: { x: ["a", "b"], y: ["a", "b"] },
      diagnostics: [],
    });
  });

  it("nesting too deep, whether js-yaml can read it or not", () => {
    const deep = `a: ${"[".repeat(100)}${"]".repeat(100)}\n`;
    expect(loadFrontmatter(deep).diagnostics.map((d) => d.code)).toEqual(["yaml_syntax"]);
    const deeper = `a: ${"[".repeat(30_000)}${"]".repeat(30_000)}\n`;
    expect(loadFrontmatter(deeper).diagnostics.map((d) => d.code)).toEqual(["yaml_syntax"]);
  });

  it("a value starting with `*`, `!`, `@`: hint to quote it", () => {
    const alias = loadFrontmatter("summary: *bold* words\n").diagnostics[0];
    expect(alias?.message.en).toContain("reads as a YAML alias; put it in quotes");
    const tag = loadFrontmatter("summary: !important\n").diagnostics[0];
    expect(tag?.message.en).toContain("reads as a YAML tag");
    const at = loadFrontmatter("summary: @team\n").diagnostics[0];
    expect(at?.message.en).toContain("cannot start with `@`");
  });

  it("an unclosed quote: yaml_syntax with a Russian reason", () => {
    const result = loadFrontmatter('summary: "open\n');
    expect(result.diagnostics[0]?.code).toBe("yaml_syntax");
    expect(result.diagnostics[0]?.message.ru).toContain("кавычки не закрыты");
  });
});

describe("normalizeBody", () => {
  it.each([
    ["", ""],
    [" \n\t\n", ""],
    ["\n\nText", "Text\n"],
    ["  indented\n", "  indented\n"],
    ["a\r\nb\rc\n\n\n", "a\nb\nc\n"],
    ["\n \nx  \n  ", "x\n"],
  ])("%j → %j", (input, output) => {
    expect(normalizeBody(input)).toBe(output);
  });
});

describe("createFrontmatterLocator", () => {
  it("finds top-level keys and comment items", () => {
    const locator = createFrontmatterLocator(
      'id: x\n"quoted key": 1\ncontract:\n  - a\n  - #tag\nlinks: []\n',
    );
    expect(locator.lineOfKey("id")).toBe(2);
    expect(locator.lineOfKey("quoted key")).toBe(3);
    expect(locator.lineOfKey("links")).toBe(7);
    expect(locator.lineOfKey("nope")).toBeUndefined();
    expect(locator.commentItems()).toEqual([{ line: 6, text: "#tag" }]);
  });
});
