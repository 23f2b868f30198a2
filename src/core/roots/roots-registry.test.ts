import { describe, expect, it } from "vitest";
import { matchRegistry, parseRegistry, rootForPath } from "./roots-registry.js";

describe("parseRegistry (knowledge roots, the registry)", () => {
  it("case 2: longest match, whole segments only", () => {
    const { entries, diagnostics } = parseRegistry("team/ => group\nteam/x.md => user\n");
    expect(diagnostics).toEqual([]);
    expect(rootForPath(entries, "team/x.md")).toBe("primary");
    expect(rootForPath(entries, "team/y.md")).toBe("group");
    expect(rootForPath(entries, "teamwork/z.md")).toBe("primary");
  });

  it("reads files, prefixes, comments, blank lines, user and no second part", () => {
    const text = [
      "# Registry",
      "",
      "group/smoke-test-v1.md => group   # the smoke file",
      "public/ => Public",
      "mine.md",
      "moved.md => user",
      "  docs/deep/ => group",
    ].join("\n");
    const { entries, diagnostics } = parseRegistry(text);
    expect(diagnostics).toEqual([]);
    expect(entries.map((e) => [e.line, e.path, e.prefix, e.root])).toEqual([
      [3, "group/smoke-test-v1.md", false, "group"],
      [4, "public", true, "public"],
      [5, "mine.md", false, "primary"],
      [6, "moved.md", false, "primary"],
      [7, "docs/deep", true, "group"],
    ]);
    expect(rootForPath(entries, "docs/deep/a/b.md")).toBe("group");
    expect(rootForPath(entries, "docs/other.md")).toBe("primary");
    expect(matchRegistry(entries, "public/x.md")?.line).toBe(4);
  });

  it("reports malformed lines with their numbers and keeps the others", () => {
    const text = [
      "ok.md => group",
      "a.md => group => public",
      " => group",
      "../escape.md => group",
      "/abs.md => group",
      "x.md => not an id",
      "some prose line",
      "fine/ => public",
    ].join("\n");
    const { entries, diagnostics } = parseRegistry(text);
    expect(entries.map((e) => e.line)).toEqual([1, 8]);
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ["registry_line_malformed", 2],
      ["registry_line_malformed", 3],
      ["registry_line_malformed", 4],
      ["registry_line_malformed", 5],
      ["registry_line_malformed", 6],
      ["registry_line_malformed", 7],
    ]);
    expect(diagnostics[0]?.message.en).toBe(
      "registry line is not `path => root`: more than one “=>”; skipped",
    );
  });
});
