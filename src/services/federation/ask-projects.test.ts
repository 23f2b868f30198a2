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
  it("is seed 000's hint with the tool names given, in Russian for lang ru", () => {
    const names = { getFrom: "knowledge.get_from", createTask: "tasks.create" };
    expect(askNextActionHint(names, "ru")).toBe(
      "knowledge.get_from(project, slug) для полного текста; tasks.create(target_project, body) если знание не оформлено",
    );
  });
  it("follows lang, English by default", () => {
    const names = { getFrom: "knowledge_get_from", createTask: "tasks_create" };
    expect(askNextActionHint(names)).toBe(
      "knowledge_get_from(project, slug) for the full text; tasks_create(target_project, body) if the knowledge is not written down",
    );
    expect(askNextActionHint(names, "en")).toBe(askNextActionHint(names));
  });
});
