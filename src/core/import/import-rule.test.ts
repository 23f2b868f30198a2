import { describe, expect, it } from "vitest";
import { LIMITS } from "../entry/entry.js";
import { parseEntry } from "../entry/parse-entry.js";
import { utf8ByteLength } from "../entry/utf8.js";
import {
  type ImportedEntry,
  importRule,
  isKnowledgeFileName,
  sourceVocabulary,
} from "./import-rule.js";
import { readSourceFrontmatter } from "./import-rule-frontmatter.js";
import { splitBody } from "./import-rule-split.js";
import { collectWords, importVocabulary, isGenericHeading } from "./import-rule-words.js";

/** A minter of valid, increasing UUIDv7s: the same sequence on every call of `minter()`. */
function minter(): () => string {
  let n = 0;
  return () => `0190f5a4-3b2c-7d10-8a11-${(++n).toString(16).padStart(12, "0")}`;
}

function importOne(path: string, text: string | Uint8Array): ImportedEntry {
  const outcome = importRule({ path, bytes: text }, minter());
  expect(outcome.skip).toBeUndefined();
  expect(outcome.entries).toHaveLength(1);
  return outcome.entries[0] as ImportedEntry;
}

function wordsOf(imported: ImportedEntry): string[] {
  return (imported.entry.contract[0]?.params.words as string[] | undefined) ?? [];
}

function strictParse(text: string) {
  const result = parseEntry(text, { mode: "strict" });
  expect(result.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
  expect(result.value).toBeDefined();
  return result.value;
}

const CURSOR_RULE = [
  "---",
  "description: Guidelines for writing Next.js apps with Tailwind CSS and Supabase auth.",
  "globs: **/*.ts, **/*.tsx",
  "alwaysApply: false",
  "---",
  "# Next.js Tailwind Rules",
  "",
  "## Routing",
  "- Use the app router.",
  "",
  "## Styling",
  "- Tailwind only.",
  "",
].join("\n");

describe("importRule", () => {
  it("reads a Cursor rule whose globs are invalid YAML: description, words, Source section", () => {
    const imported = importOne("cursorrules/rules-new/nextjs.mdc", CURSOR_RULE);
    const { entry } = imported;
    expect(entry.origin).toBe("human");
    expect(entry.links).toEqual([]);
    expect(entry.unknownKeys).toEqual({});
    expect(entry.summary).toBe(
      "Guidelines for writing Next.js apps with Tailwind CSS and Supabase auth.",
    );
    expect(wordsOf(imported)).toEqual([
      "next",
      "js",
      "tailwind",
      "nextjs",
      "apps",
      "css",
      "supabase",
      "auth",
      "routing",
      "styling",
    ]);
    expect(entry.body).toBe(
      [
        "# Next.js Tailwind Rules",
        "",
        "## Routing",
        "- Use the app router.",
        "",
        "## Styling",
        "- Tailwind only.",
        "",
        "## Source",
        "",
        "- path: cursorrules/rules-new/nextjs.mdc",
        "- description: Guidelines for writing Next.js apps with Tailwind CSS and Supabase auth.",
        "- globs: **/*.ts, **/*.tsx",
        "- alwaysApply: false",
        "",
      ].join("\n"),
    );
    const parsed = strictParse(imported.text);
    expect(parsed?.entry).toEqual(entry);
    expect(parsed?.reachable).toBe(true);
    expect(parsed?.summary).toBe(entry.summary);
  });

  it("reads a SKILL.md: name first, then description; nested keys are only named", () => {
    const text = [
      "---",
      "name: pdf-forms",
      "description: |-",
      "  Fill PDF forms",
      "  from JSON data.",
      "metadata:",
      "  short-description: PDF",
      "---",
      "",
      "Fill forms with pypdf.",
      "",
    ].join("\n");
    const imported = importOne("skills/pdf-forms/SKILL.md", text);
    expect(wordsOf(imported)).toEqual(["pdf", "forms", "fill", "json", "data"]);
    expect(imported.entry.summary).toBe("Fill PDF forms from JSON data.");
    expect(imported.entry.body).toContain(
      "- name: pdf-forms\n- description: Fill PDF forms from JSON data.\n- other keys: metadata\n",
    );
    strictParse(imported.text);
  });

  it("reads a file without frontmatter: H1 title and first prose paragraph make the summary", () => {
    const text =
      "# Deploy checklist\n\n<!-- draft -->\n\nRun the migrations first.\nThen deploy.\n";
    const imported = importOne("wiki/deploy.md", text);
    expect(imported.entry.summary).toBe(
      "Deploy checklist — Run the migrations first. Then deploy.",
    );
    expect(wordsOf(imported)).toEqual(["deploy", "checklist"]);
    expect(imported.entry.body.endsWith("## Source\n\n- path: wiki/deploy.md\n")).toBe(true);
    strictParse(imported.text);
  });

  it("leaves the summary out when the body's first paragraph says the same", () => {
    const imported = importOne("notes/plain.txt", "Plain words only.\n\nMore.\n");
    expect(imported.entry.summary).toBeUndefined();
    expect(strictParse(imported.text)?.summary).toBe("Plain words only.");
  });

  it("names a .cursorrules file (and other generic names) after its folder", () => {
    const imported = importOne(
      "rules/angular-typescript-cursorrules-prompt-file/.cursorrules",
      "You are an expert in Angular.\n",
    );
    expect(wordsOf(imported)).toEqual(["angular", "typescript"]);
    expect(wordsOf(importOne("a/react-hooks/SKILL.md", "Hooks.\n"))).toEqual(["react", "hooks"]);
  });

  it("reads a BOM + CRLF file exactly like its LF twin", () => {
    const lf = "---\r\ntitle: Release\r\n---\r\n# Release\r\n\r\nTag, then push.\r\n";
    const twin = importOne("x/release.md", lf.replaceAll("\r\n", "\n"));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lf)]);
    const imported = importOne("x/release.md", bytes);
    expect(imported.text).toBe(twin.text);
    expect(imported.text).not.toContain("\r");
    expect(imported.entry.summary).toBe("Release — Tag, then push.");
  });

  it("reads invalid YAML frontmatter line by line (template placeholders, duplicate keys)", () => {
    const text = [
      "---",
      "title: Source notes",
      "created: {{generated_date}}",
      "title: second",
      "tags:",
      "  - wiki",
      "  - 'llm'",
      "---",
      "Body.",
    ].join("\n");
    const imported = importOne("vault/Source notes.md", text);
    expect(imported.entry.summary).toBe("Source notes — Body.");
    expect(imported.entry.body).toContain(
      "- title: Source notes\n- created: {{generated_date}}\n- tags: wiki, llm\n",
    );
    strictParse(imported.text);
  });

  it("takes Russian words from the title and headings, without stopwords, ё as е", () => {
    const text = [
      "---",
      "title: Откат релиза",
      "description: Как откатить развёртывание, если миграция упала",
      "---",
      "## Подготовка базы",
      "Сначала снимок.",
    ].join("\n");
    const imported = importOne("ru/откат.md", text);
    expect(wordsOf(imported)).toEqual([
      "откат",
      "релиза",
      "развертывание",
      "миграция",
      "упала",
      "подготовка",
      "базы",
    ]);
    expect(imported.entry.summary).toBe("Как откатить развёртывание, если миграция упала");
    strictParse(imported.text);
  });

  it("keeps an unterminated frontmatter as body text", () => {
    const imported = importOne("x/odd.md", "---\ntitle: never closed\n\nText.\n");
    expect(imported.entry.body.startsWith("---\ntitle: never closed\n\nText.\n\n## Source")).toBe(
      true,
    );
    strictParse(imported.text);
  });

  it("uses the description as body when the file is frontmatter only", () => {
    const imported = importOne(
      "s/SKILL.md",
      "---\nname: lonely\ndescription: Only a header.\n---\n",
    );
    expect(imported.entry.body.startsWith("Only a header.\n\n## Source\n")).toBe(true);
    strictParse(imported.text);
  });

  it("skips files without text, binary files and non-UTF-8 files with a reason", () => {
    const skip = (bytes: string | Uint8Array) => importRule({ path: "f.md", bytes }, minter()).skip;
    expect(skip("")?.code).toBe("empty");
    expect(skip(" \n\n\t\n")?.code).toBe("empty");
    expect(skip("---\n---\n")?.code).toBe("empty");
    expect(skip("---\nname: x\n---\n--- *** ---\n")?.code).toBe("empty");
    expect(skip(new Uint8Array([0x61, 0x00, 0x62]))?.code).toBe("binary");
    const latin1 = skip(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(latin1?.code).toBe("not_utf8");
    expect(latin1?.message.en).toBe("the file is not valid UTF-8 (byte 3); not imported");
  });

  it("splits a file over 64 KB into linked parts, each a valid entry under the limit", () => {
    const section = (i: number) => `## Section ${i} kubernetes\n\n${"lorem ipsum ".repeat(2000)}\n`;
    const text = `---\ndescription: Big manual.\n---\n# Manual\n\n${Array.from({ length: 8 }, (_, i) => section(i)).join("\n")}`;
    const outcome = importRule({ path: "docs/manual.md", bytes: text }, minter());
    expect(outcome.skip).toBeUndefined();
    const parts = outcome.entries;
    expect(parts.length).toBe(4);
    parts.forEach((part, i) => {
      expect(part.part).toBe(i + 1);
      expect(part.parts).toBe(4);
      expect(part.bytes).toBeLessThanOrEqual(LIMITS.fileBytes);
      expect(utf8ByteLength(part.text)).toBe(part.bytes);
      expect(part.entry.body).toContain(`- part: ${i + 1} of 4\n- path: docs/manual.md\n`);
      const prev = parts[i - 1]?.entry.id;
      const next = parts[i + 1]?.entry.id;
      expect(part.entry.links).toEqual([prev, next].filter(Boolean));
      strictParse(part.text);
    });
    expect(parts[0]?.entry.summary).toBe("Manual (part 1/4): Big manual.");
    expect(parts[1]?.entry.summary).toMatch(/^Manual \(part 2\/4\): Section \d kubernetes$/);
  });

  it("is deterministic: same input and ids, same file", () => {
    const a = importRule({ path: "r.mdc", bytes: CURSOR_RULE }, minter());
    const b = importRule({ path: "r.mdc", bytes: CURSOR_RULE }, minter());
    expect(a).toEqual(b);
  });

  it("cuts a long description to 512 bytes at a word, with an ellipsis", () => {
    const description = "слово ".repeat(200).trim();
    const imported = importOne("x.md", `---\ndescription: ${description}\n---\nТекст.\n`);
    const summary = imported.entry.summary ?? "";
    expect(utf8ByteLength(summary)).toBeLessThanOrEqual(512);
    expect(summary.endsWith("слово…")).toBe(true);
    strictParse(imported.text);
  });
});

describe("isKnowledgeFileName", () => {
  it.each([
    ["AGENTS.md", true],
    ["rule.mdc", true],
    ["page.mdx", true],
    ["notes.txt", true],
    ["x.instructions.md", true],
    [".cursorrules", true],
    [".cursorrules-mvvm-rxswift", true],
    ["flutter-cursorrules-prompt-file", true],
    [".clinerules", true],
    ["LICENSE", false],
    ["LICENSE.txt", false],
    ["LICENSE-CODE.md", false],
    ["data.json", false],
    [".gitkeep", false],
    ["cursorrules.json", false],
  ])("%s → %s", (name, expected) => {
    expect(isKnowledgeFileName(name)).toBe(expected);
  });
});

describe("readSourceFrontmatter", () => {
  it("reads JSON frontmatter, YAML core scalars, and an empty block", () => {
    expect([...readSourceFrontmatter('---\n{"title": "J", "n": 1}\n---\nB').fields]).toEqual([
      ["title", "J"],
      ["n", 1],
    ]);
    const core = readSourceFrontmatter("---\ndate: 2024-01-05\nok: yes\non: true\n---\n");
    expect([...core.fields]).toEqual([
      ["date", "2024-01-05"],
      ["ok", "yes"],
      ["on", true],
    ]);
    expect(readSourceFrontmatter("---\n---\nbody").kind).toBe("yaml");
  });
});

describe("collectWords", () => {
  it("drops stopwords, digits-only tokens and same-stem repeats, and caps the count", () => {
    expect(collectWords(["Use the 2024 deploy", "deploying deployments pipeline rules"])).toEqual([
      "deploy",
      "pipeline",
    ]);
    expect(collectWords(["a1 b2 c3 d4 e5"], 3)).toEqual(["a1", "b2", "c3"]);
  });
});

describe("splitBody", () => {
  it("joins back to the body and keeps parts under the cap", () => {
    const body = `# A\n\n${"x".repeat(30)}\n\n## B\n\n${"y ".repeat(40)}\n\`\`\`\n## not a heading\n\`\`\`\n`;
    const parts = splitBody(body, 50);
    expect(parts.join("")).toBe(body);
    for (const part of parts) expect(utf8ByteLength(part)).toBeLessThanOrEqual(50);
  });
});

describe("frontmatter aliases in foreign files", () => {
  const mint = () => "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f99";
  it("a rule whose aliases expand past 64 KB is skipped frontmatter_too_large", () => {
    const yaml = `description: &s "${"y".repeat(40_000)}"\nglobs: [*s, *s]\n`;
    const outcome = importRule(
      { path: "bomb.mdc", bytes: `---\n${yaml}---\n\n# Rule\n\nText.\n` },
      mint,
    );
    expect(outcome.entries).toEqual([]);
    expect(outcome.skip?.code).toBe("frontmatter_too_large");
    expect(outcome.skip?.message.en).toBe(
      "the frontmatter expands to more than 65536 bytes once its YAML aliases are followed; not imported",
    );
  });

  it("a rule with more than 256 glob stars is still imported (read line by line)", () => {
    const globs = Array.from({ length: 300 }, (_, i) => `*.x${i}`).join(", ");
    const text = `---\ndescription: Many globs\nglobs: ${globs}\n---\n\n# Rule\n\nUse the globs.\n`;
    const outcome = importRule({ path: "globs.mdc", bytes: text }, mint);
    expect(outcome.skip).toBeUndefined();
    expect(outcome.entries.length).toBe(1);
  });
});

describe("distinctive import words", () => {
  it("takes no words from generic headings (Overview, Notes, Summary, Примечания, Ссылки)", () => {
    const text = [
      "# Payment retries",
      "",
      "## Overview",
      "## Notes",
      "## Summary",
      "## Примечания",
      "## Ссылки",
      "## 2. Idempotency keys:",
      "",
      "Retry with the same key.",
    ].join("\n");
    const words = wordsOf(importOne("docs/payments.md", text));
    expect(words).toEqual(["payment", "retries", "idempotency", "keys"]);
    for (const generic of ["overview", "notes", "summary", "примечания", "ссылки"]) {
      expect(words).not.toContain(generic);
    }
  });

  it("drops the run's template headings and common words (importVocabulary)", () => {
    const files = Array.from({ length: 40 }, (_, i) =>
      sourceVocabulary(
        `rules/r${i}.md`,
        `# Rule ${i} widget${i}\n\n## Coding Standards\n\n## Security\n\ntext ${i}\n`,
      ),
    );
    const vocabulary = importVocabulary(files);
    expect([...vocabulary.templateHeadings].sort()).toEqual(["coding standards", "security"]);
    // `security` is a word of all 40 files (> 5%); `widget7` of one.
    expect(vocabulary.commonStems.has("secur")).toBe(true);
    expect(vocabulary.commonStems.has("widget7")).toBe(false);
    const outcome = importRule(
      {
        path: "rules/r7.md",
        bytes: "# Rule 7 widget7\n\n## Coding Standards\n\n## Security\n\n## Caching layer\n",
      },
      minter(),
      vocabulary,
    );
    expect(wordsOf(outcome.entries[0] as ImportedEntry)).toEqual([
      "widget7",
      "r7",
      "caching",
      "layer",
    ]);
  });

  it("judges common words only when at least 20 files are imported", () => {
    const files = Array.from({ length: 5 }, () => sourceVocabulary("a.md", "# Stripe webhooks\n"));
    expect(importVocabulary(files).commonStems.size).toBe(0);
    expect(isGenericHeading("  Getting Started! ")).toBe(true);
    expect(isGenericHeading("Getting the keys")).toBe(false);
  });
});
