import { describe, expect, it } from "vitest";
import { A, ENTRIES, frontMatter, item } from "./export.test-helpers.js";
import { renderSkills } from "./render-skills.js";

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
