import { describe, expect, it } from "vitest";
import type { Entry } from "../entry/entry.js";
import { readSourceFrontmatter } from "../import/import-rule-frontmatter.js";
import {
  contractSentence,
  type ExportEntry,
  entryGlobs,
  exportSlug,
  groupOf,
  oneLine,
  parseExportFormat,
} from "./export-entry.js";
import { entryMetaLine, readEntryMetaLine } from "./export-marker.js";
import {
  findSection,
  mergeAgentsMd,
  renderAgentsSection,
  SECTION_BEGIN_LINE,
} from "./render-agents-md.js";
import { renderCursorRules } from "./render-cursor.js";
import { renderSkills } from "./render-skills.js";

const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const C = "01921938-b600-7344-b7bb-b0d96211fc5a";

function item(id: string, path: string, over: Partial<Entry> = {}, summary?: string): ExportEntry {
  const entry: Entry = {
    id,
    contract: [{ mechanism: "on_query", params: { words: ["rollback", "релиз"] } }],
    origin: "human",
    links: [],
    unknownKeys: {},
    body: "Roll back with helm rollback.\n\nNever redeploy the old tag.\n",
    ...over,
  };
  return { entry, summary: summary ?? "Roll back with helm rollback.", path };
}

const ENTRIES: ExportEntry[] = [
  item(
    B,
    ".gitriver/knowledge/ops/migrations.md",
    {
      contract: [{ mechanism: "on_tool", params: { name: "run_migration" } }],
      origin: "agent",
      body: "Run production migrations with a lock timeout.\n",
    },
    "Run production migrations with a lock timeout.",
  ),
  item(
    A,
    ".gitriver/knowledge/deploy.md",
    { links: [B], summary: "Rollbacks: helm, not redeploys" },
    "Rollbacks: helm, not redeploys",
  ),
  item(
    C,
    ".gitriver/knowledge/ops/hooks.md",
    {
      contract: [
        { mechanism: "on_query", params: { words: ["hook"] } },
        { mechanism: "on_path", params: { glob: "hooks/**" } },
        { mechanism: "on_path", params: { globs: ["src/**/*.ts", "hooks/**"] } },
      ],
      body: "# Hooks\n\nThe pre-receive hook must never commit.\n",
    },
    "Hooks — The pre-receive hook must never commit.",
  ),
];

/** The front matter of a rendered file, read as Cursor and skill loaders read it. */
function frontMatter(text: string): Map<string, unknown> {
  expect(text.startsWith("---\n")).toBe(true);
  const read = readSourceFrontmatter(text);
  expect(read.kind === "yaml" || read.kind === "lines").toBe(true);
  return read.fields;
}

describe("formats and shared helpers", () => {
  it("reads a format and names the nearest one for a typo", () => {
    expect(parseExportFormat("cursor")).toBe("cursor");
    expect(() => parseExportFormat("agents")).toThrow(/did you mean “agents-md”/);
    expect(() => parseExportFormat("skill")).toThrow(/did you mean “skills”/);
    expect(() => parseExportFormat(undefined)).toThrow(/a format is needed/);
    try {
      parseExportFormat("cursr");
    } catch (error) {
      expect((error as { code: string }).code).toBe("invalid_input");
    }
  });

  it("groups by the folder under .gitriver/knowledge/", () => {
    expect(groupOf(".gitriver/knowledge/deploy.md")).toBe("general");
    expect(groupOf(".gitriver/knowledge/ops/db/x.md")).toBe("ops/db");
    expect(groupOf("notes/x.md")).toBe("notes");
  });

  it("makes slugs that are stable, distinct per id and valid skill names", () => {
    const name = /^[a-z0-9]+(-[a-z0-9]+)*$/u;
    for (const summary of [
      "Roll back with helm rollback",
      "Откат релиза — это helm rollback",
      "¡Ünïcödé! ",
      "",
      "a".repeat(100),
      "word ".repeat(40),
    ]) {
      const slug = exportSlug(summary, A);
      expect(slug).toMatch(name);
      expect(slug.length).toBeLessThanOrEqual(64);
      expect(slug.endsWith("-4d5e6f70")).toBe(true);
      expect(exportSlug(summary, A)).toBe(slug);
      expect(exportSlug(summary, B)).not.toBe(slug);
    }
    expect(exportSlug("Откат релиза", A)).toBe("otkat-reliza-4d5e6f70");
    expect(exportSlug("", A)).toBe("entry-4d5e6f70");
  });

  it("says the contract in words and reads on_path globs", () => {
    expect(contractSentence(ENTRIES[0]?.entry as Entry)).toBe(
      "Before calling the tool: run_migration.",
    );
    expect(contractSentence(ENTRIES[1]?.entry as Entry)).toBe(
      "Use when the task mentions: rollback, релиз.",
    );
    expect(entryGlobs(ENTRIES[2]?.entry as Entry)).toEqual(["hooks/**", "src/**/*.ts"]);
    expect(entryGlobs(ENTRIES[1]?.entry as Entry)).toEqual([]);
  });

  it("cuts one-line text at a word, never inside a character", () => {
    expect(oneLine("a  b\n c", 10)).toBe("a b c");
    const cut = oneLine(`${"word ".repeat(300)}`, 1024);
    expect(cut.length).toBeLessThanOrEqual(1024);
    expect(cut.endsWith("…")).toBe(true);
    const emoji = oneLine("😀".repeat(600), 1024);
    expect(emoji.length).toBeLessThanOrEqual(1024);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF]…$/u);
  });

  it("keeps the meta in a comment no value can close, and reads it back", () => {
    const entry = item(A, "x.md", {
      summary: "closes --> here & <b>",
      contract: [{ mechanism: "on_query", params: { words: ["-->", "a&b"] } }],
    }).entry;
    const line = entryMetaLine(entry);
    expect(line.indexOf("-->")).toBe(line.length - 3);
    const meta = readEntryMetaLine(line);
    expect(meta).toEqual({
      id: A,
      origin: "human",
      contract: entry.contract,
      links: [],
      summary: "closes --> here & <b>",
    });
    expect(readEntryMetaLine("<!-- lore:entry {bad -->")).toHaveProperty("error");
    expect(readEntryMetaLine('<!-- lore:entry {"id":"nope"} -->')).toHaveProperty("error");
    expect(readEntryMetaLine(`<!-- lore:entry {"id":"${A}","origin":"human"}`)).toHaveProperty(
      "error",
    );
  });
});

describe("agents-md", () => {
  it("renders a section per group, each entry between its markers with its body verbatim", () => {
    const section = renderAgentsSection(ENTRIES);
    expect(section.ids).toEqual([A, C, B]);
    const lines = section.text.split("\n");
    expect(lines[0]).toBe(SECTION_BEGIN_LINE);
    expect(lines[1]).toBe("## Knowledge from Lore");
    expect(lines.filter((line) => line.startsWith("### "))).toEqual(["### general", "### ops"]);
    expect(section.text.endsWith("<!-- lore:end -->\n")).toBe(true);
    expect(section.text).toContain(
      `${entryMetaLine(ENTRIES[2]?.entry as Entry)}\n# Hooks\n\nThe pre-receive hook must never commit.\n<!-- /lore:entry -->`,
    );
    expect(renderAgentsSection([...ENTRIES].reverse()).text).toBe(section.text);
  });

  it("leaves out an entry whose body holds a marker line, and says so", () => {
    const bad = item(A, ".gitriver/knowledge/x.md", { body: "Text.\n<!-- lore:end -->\n" });
    const section = renderAgentsSection([bad, ENTRIES[0] as ExportEntry]);
    expect(section.ids).toEqual([B]);
    expect(section.left_out).toEqual([A]);
    expect(renderAgentsSection([bad]).text).toContain("_No reachable entries._");
  });

  it("merges into a user's AGENTS.md without touching their text, idempotently", () => {
    const section = renderAgentsSection(ENTRIES).text;
    const mine = "# My project\n\nRun `make test` before pushing.\n";
    const once = mergeAgentsMd(mine, section);
    expect(once.startsWith(mine)).toBe(true);
    expect(once).toBe(`${mine}\n${section}`);
    expect(mergeAgentsMd(once, section)).toBe(once);
    const after = `${once}\n## Mine again\n\nKeep this.\n`;
    const fewer = renderAgentsSection([ENTRIES[0] as ExportEntry]).text;
    const replaced = mergeAgentsMd(after, fewer);
    expect(replaced).toBe(`${mine}\n${fewer}\n## Mine again\n\nKeep this.\n`);
    expect(mergeAgentsMd(undefined, section)).toBe(section);
    expect(mergeAgentsMd("no newline at the end", section)).toBe(
      `no newline at the end\n\n${section}`,
    );
  });

  it("keeps CRLF files CRLF and a section at the very end of a file", () => {
    const section = renderAgentsSection(ENTRIES).text;
    const mine = "# Mine\r\n\r\nText.\r\n";
    const once = mergeAgentsMd(mine, section);
    expect(once.startsWith(mine)).toBe(true);
    expect(once.replace(/\r\n/gu, "").includes("\n")).toBe(false);
    expect(mergeAgentsMd(once, section)).toBe(once);
    const noFinalNewline = section.slice(0, -1);
    expect(mergeAgentsMd(noFinalNewline, section)).toBe(section);
  });

  it("refuses damaged markers rather than guess whose text is whose", () => {
    const section = renderAgentsSection(ENTRIES).text;
    const damaged = `${SECTION_BEGIN_LINE}\nno end\n`;
    expect(() => mergeAgentsMd(damaged, section)).toThrow(/damaged Lore section/);
    expect(typeof findSection(["<!-- lore:end -->", SECTION_BEGIN_LINE])).toBe("string");
    expect(() => mergeAgentsMd(`${section}${section}`, section)).toThrow(/2 lore:begin/);
  });
});

describe("cursor", () => {
  it("writes .mdc rules with description, globs and alwaysApply, the id in a comment", () => {
    const files = renderCursorRules(ENTRIES);
    expect(files.map((file) => file.path)).toEqual([
      ".cursor/rules/lore/rollbacks-helm-not-redeploys-4d5e6f70.mdc",
      ".cursor/rules/lore/hooks-the-pre-receive-hook-must-never-6211fc5a.mdc",
      ".cursor/rules/lore/run-production-migrations-with-a-lock-5e6f7081.mdc",
    ]);
    for (const file of files) {
      const fields = frontMatter(file.text);
      expect([...fields.keys()]).toEqual(["description", "globs", "alwaysApply"]);
      expect(fields.get("alwaysApply")).toBe(false);
      expect(typeof fields.get("description")).toBe("string");
      expect(file.text).toContain(
        entryMetaLine(ENTRIES.find((e) => e.entry.id === file.ids[0])?.entry as Entry),
      );
    }
    const [rollback, hooks, migration] = files;
    expect(frontMatter(rollback?.text ?? "").get("description")).toBe(
      "Rollbacks: helm, not redeploys Use when the task mentions: rollback, релиз.",
    );
    expect(frontMatter(migration?.text ?? "").get("description")).toBe(
      "Run production migrations with a lock timeout. Before calling the tool: run_migration.",
    );
    expect(rollback?.text).toMatch(/\nglobs:\n/u);
    expect(hooks?.text).toContain("\nglobs: hooks/**, src/**/*.ts\n");
    expect(migration?.text.endsWith("Run production migrations with a lock timeout.\n")).toBe(true);
  });

  it("writes globs holding a comma as a list", () => {
    const [file] = renderCursorRules([
      item(A, "x.md", {
        contract: [
          { mechanism: "on_query", params: { words: ["x"] } },
          { mechanism: "on_path", params: { glob: "src/{a,b}/**" } },
        ],
      }),
    ]);
    expect(file?.text).toContain('\nglobs: ["src/{a,b}/**"]\n');
    expect(frontMatter(file?.text ?? "").get("globs")).toEqual(["src/{a,b}/**"]);
  });
});

describe("skills", () => {
  it("writes SKILL.md folders whose name matches the folder, with metadata.lore-id", () => {
    const files = renderSkills(ENTRIES);
    for (const file of files) {
      const fields = frontMatter(file.text);
      expect([...fields.keys()]).toEqual(["name", "description", "metadata"]);
      const name = fields.get("name") as string;
      expect(file.path).toBe(`.claude/skills/${name}/SKILL.md`);
      expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/u);
      expect(name.length).toBeLessThanOrEqual(64);
      const description = fields.get("description") as string;
      expect(description.length).toBeGreaterThan(0);
      expect(description.length).toBeLessThanOrEqual(1024);
      expect(fields.get("metadata")).toEqual({ "lore-id": file.ids[0] });
    }
  });

  it("cuts a long description to the format's 1,024 characters", () => {
    const long = item(A, "x.md", {}, "word ".repeat(400).trim());
    const [file] = renderSkills([long]);
    const description = frontMatter(file?.text ?? "").get("description") as string;
    expect(description.length).toBeLessThanOrEqual(1024);
    expect(description.endsWith("…")).toBe(true);
  });
});
