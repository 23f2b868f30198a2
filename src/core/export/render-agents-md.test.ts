import { describe, expect, it } from "vitest";
import type { Entry } from "../entry/entry.js";
import { A, B, C, ENTRIES, item } from "./export.test-helpers.js";
import type { ExportEntry } from "./export-entry.js";
import { entryMetaLine } from "./export-marker.js";
import {
  findSection,
  mergeAgentsMd,
  renderAgentsSection,
  SECTION_BEGIN_LINE,
} from "./render-agents-md.js";

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
