import { describe, expect, it } from "vitest";
import { askNextActionHint, memoIndexParser } from "./ask-projects.js";

describe("memoIndexParser", () => {
  it("parses a project's index once while its text is unchanged", () => {
    const parse = memoIndexParser();
    const md = "## Concepts\n\n- [a](concepts/a.md) — A\n";
    const first = parse("p", md);
    expect(parse("p", md)).toBe(first);
    expect(first.entries).toEqual([{ slug: "concepts/a", type: "concepts", title: "A" }]);
    const changed = parse("p", `${md}- [b](concepts/b.md) — B\n`);
    expect(changed).not.toBe(first);
    expect(changed.entries).toHaveLength(2);
  });
});

describe("askNextActionHint", () => {
  it("is seed 000's hint with the tool names given", () => {
    expect(askNextActionHint({ getFrom: "knowledge.get_from", createTask: "tasks.create" })).toBe(
      "knowledge.get_from(project, slug) для полного текста; tasks.create(target_project, body) если знание не оформлено",
    );
  });
});
