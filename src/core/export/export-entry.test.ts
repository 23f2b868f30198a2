import { describe, expect, it } from "vitest";
import type { Entry } from "../entry/entry.js";
import { A, B, ENTRIES } from "./export.test-helpers.js";
import {
  contractSentence,
  type ExportEntry,
  entryGlobs,
  exportDescription,
  exportSlug,
  groupOf,
  oneLine,
  parseExportFormat,
} from "./export-entry.js";

describe("formats and shared helpers", () => {
  it("reads a format and names the nearest one for a typo", () => {
    expect(parseExportFormat("cursor")).toBe("cursor");
    expect(() => parseExportFormat("agents")).toThrow(/did you mean “agents-md”/);
    expect(() => parseExportFormat("skill")).toThrow(/did you mean “skills”/);
    expect(() => parseExportFormat("agent")).toThrow(/did you mean “agents-md”/);
    expect(() => parseExportFormat("AGENTS.md")).toThrow(/did you mean “agents-md”/);
    expect(() => parseExportFormat("zzz")).not.toThrow(/did you mean/);
    expect(() => parseExportFormat("zzz")).toThrow(/not an export format/);
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

  it("closes the summary before the contract sentence of a description", () => {
    const [migration, rollback] = ENTRIES as [ExportEntry, ExportEntry];
    expect(exportDescription(rollback, 1024)).toBe(
      "Rollbacks: helm, not redeploys. Use when the task mentions: rollback, релиз.",
    );
    expect(exportDescription(migration, 1024)).toBe(
      "Run production migrations with a lock timeout. Before calling the tool: run_migration.",
    );
    expect(exportDescription({ ...rollback, summary: "" }, 1024)).toBe(
      "Use when the task mentions: rollback, релиз.",
    );
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
});
