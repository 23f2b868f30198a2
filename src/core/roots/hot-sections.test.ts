import { describe, expect, it } from "vitest";
import { findSection, relevantSections, splitHotSections } from "./hot-sections.js";
import { isRoutingQuery } from "./route-overlay.js";

const HOT = [
  "# agent-notes",
  "intro",
  "",
  "## Releases",
  "Откат релиза — helm rollback.",
  "```",
  "# not a heading",
  "```",
  "## knowledge-roots-routing-v1 — where files live",
  "Read group files by knowledge_root_id.",
  "",
].join("\n");

describe("hot sections (knowledge roots, seed 003)", () => {
  it("splits by headings, not inside code fences", () => {
    const sections = splitHotSections(HOT);
    expect(sections.map((s) => [s.level, s.heading, s.line])).toEqual([
      [1, "agent-notes", 1],
      [2, "Releases", 4],
      [2, "knowledge-roots-routing-v1 — where files live", 9],
    ]);
    expect(sections[1]?.text).toContain("# not a heading");
    expect(findSection(sections, "knowledge-roots-routing-v1")?.line).toBe(9);
  });

  it("ranks by heading and words with recall's normalisation", () => {
    const sections = splitHotSections(HOT);
    expect(relevantSections(sections, "как откатить релизы").map((s) => s.heading)).toEqual([
      "Releases",
    ]);
    expect(relevantSections(sections, "weather today")).toEqual([]);
  });

  it("knows queries about roots", () => {
    expect(isRoutingQuery("what is in the group KB")).toBe(true);
    expect(isRoutingQuery("chmod for notes")).toBe(true);
    expect(isRoutingQuery("реестр корней")).toBe(true);
    expect(isRoutingQuery("how to roll back a release")).toBe(false);
  });
});
