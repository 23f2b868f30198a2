import { describe, expect, it } from "vitest";
import type { Entry } from "../entry/entry.js";
import { parseEntry } from "../entry/parse-entry.js";
import type { ExportEntry } from "../export/export-entry.js";
import { entryMetaLine } from "../export/export-marker.js";
import { mergeAgentsMd, renderAgentsSection } from "../export/render-agents-md.js";
import { renderCursorRules } from "../export/render-cursor.js";
import { renderSkills } from "../export/render-skills.js";
import { isLoreExportFile, readLoreExport } from "./import-exported.js";

const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

const ENTRIES: ExportEntry[] = [
  {
    path: ".gitriver/knowledge/deploy.md",
    summary: "Rollbacks: helm, not redeploys",
    entry: {
      id: A,
      contract: [{ mechanism: "on_query", params: { words: ["откат", "rollback"] } }],
      origin: "human",
      links: [B],
      summary: "Rollbacks: helm, not redeploys",
      unknownKeys: {},
      body: "Откат релиза — это `helm rollback`.\n\n```sh\nhelm rollback api 41\n```\n",
    },
  },
  {
    path: ".gitriver/knowledge/ops/migrations.md",
    summary: "Run production migrations with a lock timeout.",
    entry: {
      id: B,
      contract: [
        { mechanism: "on_tool", params: { name: "run_migration" } },
        { mechanism: "on_path", params: { glob: "db/**" } },
      ],
      origin: "agent",
      links: [],
      unknownKeys: {},
      body: "Run production migrations with a lock timeout.\n\n# Why\n\nLocks queue.\n",
    },
  },
];

function entriesOf(text: string): Entry[] {
  const read = readLoreExport(text);
  if (read === undefined || "error" in read) throw new Error(JSON.stringify(read));
  for (const { text: file } of read.entries) {
    const parsed = parseEntry(file, { mode: "lenient" });
    expect(parsed.value).toBeDefined();
    expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  }
  return read.entries.map((item) => item.entry);
}

describe("readLoreExport", () => {
  it("gives back every entry of each format whole: id, contract, origin, links, summary, body", () => {
    const agents = renderAgentsSection(ENTRIES).text;
    const cursor = renderCursorRules(ENTRIES).map((file) => file.text);
    const skills = renderSkills(ENTRIES).map((file) => file.text);
    const want = ENTRIES.map((item) => item.entry);
    expect(entriesOf(agents)).toEqual(want);
    expect(cursor.flatMap(entriesOf)).toEqual(want);
    expect(skills.flatMap(entriesOf)).toEqual(want);
  });

  it("reads a section inside a user's AGENTS.md and hands back their text as the remainder", () => {
    const mine = "# My project\r\n\r\nRun make test.\r\n";
    const merged = mergeAgentsMd(mine, renderAgentsSection(ENTRIES).text);
    const read = readLoreExport(merged);
    expect(read).toMatchObject({ kind: "section" });
    if (read === undefined || "error" in read) throw new Error("no read");
    expect(read.entries.map((item) => item.entry.id)).toEqual([A, B]);
    expect(read.remainder?.trim()).toBe("# My project\n\nRun make test.");
    const bare = readLoreExport(renderAgentsSection(ENTRIES).text);
    expect(bare && !("error" in bare) ? bare.remainder : "x").toBeUndefined();
  });

  it("keeps a user's edit of a body (the id stays)", () => {
    const [rule] = renderCursorRules([ENTRIES[1] as ExportEntry]);
    const edited = (rule?.text ?? "").replace("Locks queue.", "Locks queue; keep it short.");
    const [entry] = entriesOf(edited);
    expect(entry?.id).toBe(B);
    expect(entry?.body).toContain("keep it short");
  });

  it("says nothing of files without Lore's markers", () => {
    expect(readLoreExport("---\ndescription: x\n---\n# Rule\n\nText.\n")).toBeUndefined();
    expect(readLoreExport("# AGENTS\n\nText with lore:entry in prose.\n")).toBeUndefined();
  });

  it("refuses damaged markers instead of guessing", () => {
    const section = renderAgentsSection(ENTRIES).text;
    const unclosed = section.replace("<!-- /lore:entry -->\n", "");
    expect(readLoreExport(unclosed)).toEqual({
      error: "a lore:entry comment is never closed by <!-- /lore:entry -->",
    });
    expect(readLoreExport(section.replace("<!-- lore:end -->", ""))).toHaveProperty("error");
    const [rule] = renderCursorRules([ENTRIES[0] as ExportEntry]);
    expect(readLoreExport((rule?.text ?? "").replace(`"id":"${A}"`, '"id":"x"'))).toHaveProperty(
      "error",
    );
    const empty = `---\ndescription: x\n---\n${entryMetaLine(ENTRIES[0]?.entry as Entry)}\n\n`;
    expect(readLoreExport(empty)).toMatchObject({ error: expect.stringContaining("empty_body") });
  });

  it("tells Lore's rule and skill files from the user's", () => {
    for (const file of [...renderCursorRules(ENTRIES), ...renderSkills(ENTRIES)]) {
      expect(isLoreExportFile(file.text)).toBe(true);
      expect(isLoreExportFile(file.text.replace(/\n/gu, "\r\n"))).toBe(true);
    }
    expect(isLoreExportFile("---\ndescription: mine\n---\n# Mine\n")).toBe(false);
    expect(isLoreExportFile(`# Mine\n\n${entryMetaLine(ENTRIES[0]?.entry as Entry)}\n`)).toBe(
      false,
    );
  });
});
