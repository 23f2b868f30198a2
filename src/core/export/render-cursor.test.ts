import { describe, expect, it } from "vitest";
import type { Entry } from "../entry/entry.js";
import { A, ENTRIES, frontMatter, item } from "./export.test-helpers.js";
import { entryMetaLine } from "./export-marker.js";
import { renderCursorRules } from "./render-cursor.js";

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
      "Rollbacks: helm, not redeploys. Use when the task mentions: rollback, релиз.",
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
