import { describe, expect, it } from "vitest";
import {
  freshIndexMd,
  insertIndexEntry,
  parseWikiIndex,
  parseWikiIndexWithReport,
} from "./wiki-index.js";
import { assertWikiSlug, slugProblem, wikiPageFile } from "./wiki-slug.js";

// The six tests of seed 001, Task 1.1, as written there.
describe("parseWikiIndex (seed 001 Task 1)", () => {
  it("extracts entries from canonical index.md", () => {
    const md = `# Wiki Index

## Overview

- [overview.md](overview.md) — project overview

## Entities

- [some-entity](entities/some-entity.md) — Some Entity Title

## Concepts

- [foo](concepts/foo.md) — Foo Concept
- [bar/baz](concepts/bar/baz.md) — Nested Bar Baz

## Packages

<!-- (none yet) -->

## Sources

<!-- (none yet) -->
`;
    expect(parseWikiIndex(md)).toEqual([
      { slug: "entities/some-entity", type: "entities", title: "Some Entity Title" },
      { slug: "concepts/foo", type: "concepts", title: "Foo Concept" },
      { slug: "concepts/bar/baz", type: "concepts", title: "Nested Bar Baz" },
    ]);
  });

  it("returns empty array when all sections are empty", () => {
    const md = `# Wiki Index

## Entities

<!-- (none yet) -->

## Concepts

<!-- (none yet) -->
`;
    expect(parseWikiIndex(md)).toEqual([]);
  });

  it("returns empty array on completely malformed input", () => {
    expect(parseWikiIndex("not markdown at all")).toEqual([]);
    expect(parseWikiIndex("")).toEqual([]);
  });

  it("skips Overview section (special-cased: link is to overview.md, not type/slug.md)", () => {
    const md = "# Wiki Index\n\n## Overview\n\n- [overview.md](overview.md) — project overview\n";
    expect(parseWikiIndex(md)).toEqual([]);
  });

  it("skips entries whose link does not match expected type/slug.md pattern", () => {
    const md = `# Wiki Index

## Concepts

- [external](https://example.com) — External Link
- [proper](concepts/proper.md) — Proper Entry
`;
    expect(parseWikiIndex(md)).toEqual([
      { slug: "concepts/proper", type: "concepts", title: "Proper Entry" },
    ]);
  });

  it("handles Raw section", () => {
    const md = "# Wiki Index\n\n## Raw\n\n- [doc](raw/doc.md) — Some PDF\n";
    expect(parseWikiIndex(md)).toEqual([{ slug: "raw/doc", type: "raw", title: "Some PDF" }]);
  });
});

describe("parseWikiIndexWithReport", () => {
  it("case 1: balanced parentheses in a link target; an unbalanced line is reported, others parse", () => {
    const md = [
      "## Entities",
      "",
      "- [Ёлка (дерево)](entities/yolka-(tree).md) — Ёлка как символ",
      "- [broken](entities/broken-(tree.md) — Broken",
      "- [closed early](entities/a).md) — Early",
      "- [after](entities/after.md) — After",
    ].join("\n");
    const report = parseWikiIndexWithReport(md);
    expect(report.entries).toEqual([
      { slug: "entities/yolka-(tree)", type: "entities", title: "Ёлка как символ" },
      { slug: "entities/after", type: "entities", title: "After" },
    ]);
    expect(report.problems.map((p) => [p.line, p.code])).toEqual([
      [4, "unbalanced_link_target"],
      [5, "unbalanced_link_target"],
    ]);
    expect(report.problems[0]?.message.ru).toContain("скобки");
  });

  it("reports escaping slugs, links outside the section and lines without a title; CRLF is read", () => {
    const md = [
      "## Concepts",
      "- [up](concepts/../../secret.md) — Up",
      "- [ext](https://example.com) — External",
      "- [other](entities/x.md) — Wrong section",
      "- [no title](concepts/no-title.md)",
      "- plain bullet",
      "- [ok](concepts/ok.md) — OK",
    ].join("\r\n");
    const report = parseWikiIndexWithReport(md);
    expect(report.entries).toEqual([
      { slug: "concepts/no-title", type: "concepts", title: "no title" },
      { slug: "concepts/ok", type: "concepts", title: "OK" },
    ]);
    expect(report.problems.map((p) => p.code)).toEqual([
      "unsafe_slug",
      "link_outside_section",
      "link_outside_section",
    ]);
    expect(report.warnings.map((w) => [w.line, w.code])).toEqual([[5, "link_text_title"]]);
  });
});

describe("freshIndexMd / insertIndexEntry", () => {
  it("a fresh index has every section with the placeholder and parses to nothing", () => {
    const md = freshIndexMd();
    for (const heading of ["Overview", "Entities", "Concepts", "Packages", "Sources", "Raw"])
      expect(md).toContain(`## ${heading}\n`);
    expect(md.match(/<!-- \(none yet\) -->/g)).toHaveLength(5);
    expect(parseWikiIndex(md)).toEqual([]);
  });

  it("inserts into its section, replacing the placeholder, sorted and idempotent", () => {
    let md = freshIndexMd();
    md = insertIndexEntry(md, { slug: "concepts/zeta", title: "Zeta" });
    md = insertIndexEntry(md, { slug: "concepts/alpha", title: "Alpha" });
    md = insertIndexEntry(md, { slug: "concepts/bar/baz", title: "Nested" });
    md = insertIndexEntry(md, { slug: "entities/yolka-(tree)", title: "Ёлка как символ" });
    expect(insertIndexEntry(md, { slug: "concepts/alpha", title: "Alpha" })).toBe(md);
    expect(md).toContain(
      "## Concepts\n\n- [alpha](concepts/alpha.md) — Alpha\n- [bar/baz](concepts/bar/baz.md) — Nested\n- [zeta](concepts/zeta.md) — Zeta\n\n## Packages",
    );
    expect(md.match(/<!-- \(none yet\) -->/g)).toHaveLength(3);
    expect(parseWikiIndex(md)).toEqual([
      { slug: "entities/yolka-(tree)", type: "entities", title: "Ёлка как символ" },
      { slug: "concepts/alpha", type: "concepts", title: "Alpha" },
      { slug: "concepts/bar/baz", type: "concepts", title: "Nested" },
      { slug: "concepts/zeta", type: "concepts", title: "Zeta" },
    ]);
    const retitled = insertIndexEntry(md, { slug: "concepts/alpha", title: "Alpha, again" });
    expect(parseWikiIndex(retitled)[1]).toEqual({
      slug: "concepts/alpha",
      type: "concepts",
      title: "Alpha, again",
    });
    expect(parseWikiIndex(retitled)).toHaveLength(4);
  });

  it("starts from a fresh index when empty and adds a missing section in canonical order", () => {
    expect(parseWikiIndex(insertIndexEntry("", { slug: "raw/doc", title: "Doc" }))).toEqual([
      { slug: "raw/doc", type: "raw", title: "Doc" },
    ]);
    const md =
      "# Wiki Index\n\n## Entities\n\n- [a](entities/a.md) — A\n\n## Sources\n\n- [s](sources/s.md) — S\n";
    const out = insertIndexEntry(md, { slug: "packages/p", title: "P" });
    expect(out.indexOf("## Packages")).toBeGreaterThan(out.indexOf("## Entities"));
    expect(out.indexOf("## Packages")).toBeLessThan(out.indexOf("## Sources"));
    expect(parseWikiIndex(out).map((e) => e.slug)).toEqual([
      "entities/a",
      "packages/p",
      "sources/s",
    ]);
  });

  it("refuses slugs that escape, lack a type, or could not be read back", () => {
    for (const slug of [
      "../x",
      "/abs",
      "concepts/../x",
      "C:/x",
      "concepts",
      "other/x",
      "concepts/a]b",
      "concepts/a(b",
    ])
      expect(() => insertIndexEntry("", { slug, title: "t" }), slug).toThrow(
        expect.objectContaining({ code: "invalid_slug" }),
      );
  });
});

describe("wiki slugs", () => {
  it("refuses escapes and accepts nested slugs", () => {
    expect(slugProblem("concepts/bar/baz")).toBeNull();
    expect(slugProblem("entities/yolka-(tree)")).toBeNull();
    for (const bad of ["", "..", "a/../b", "/a", "a\\b", "C:x", "a//b", "a/./b", "a\nb"])
      expect(slugProblem(bad), JSON.stringify(bad)).not.toBeNull();
    expect(() => assertWikiSlug("../etc/passwd")).toThrow(
      expect.objectContaining({ code: "invalid_slug" }),
    );
    expect(wikiPageFile("concepts/foo")).toBe("concepts/foo.md");
  });
});

describe("what real wikis hold: read with a warning code", () => {
  it("two hyphens, no title (link text), decorated headings", () => {
    const md = [
      "# Wiki Index",
      "",
      "## Concepts · 12",
      "",
      "- [Caching](concepts/caching.md) -- Cache rules",
      "- [concepts/retry](concepts/retry.md)",
      "- [canon](concepts/canon.md) — Canonical",
      "",
      "## 🧠 Sources",
      "",
      "- [paper](sources/paper.md) — A paper (2024)",
      "- [talk](sources/talk.md) -- A talk (video)",
    ].join("\n");
    const report = parseWikiIndexWithReport(md);
    expect(report.entries).toEqual([
      { slug: "concepts/caching", type: "concepts", title: "Cache rules" },
      { slug: "concepts/retry", type: "concepts", title: "concepts/retry" },
      { slug: "concepts/canon", type: "concepts", title: "Canonical" },
      { slug: "sources/paper", type: "sources", title: "A paper (2024)" },
      { slug: "sources/talk", type: "sources", title: "A talk (video)" },
    ]);
    expect(report.problems).toEqual([]);
    expect(report.warnings.map((w) => [w.line, w.code])).toEqual([
      [3, "decorated_heading"],
      [5, "title_separator"],
      [6, "link_text_title"],
      [9, "decorated_heading"],
      [12, "title_separator"],
    ]);
    expect(report.warnings[0]?.message.ru).toContain("раздел");
  });

  it("a heading of two words or an unknown word opens no section", () => {
    const md =
      "## Entities & Concepts\n\n- [a](concepts/a.md) — A\n\n## Modules\n\n- [b](concepts/b.md) — B\n";
    expect(parseWikiIndexWithReport(md).entries).toEqual([]);
  });

  it("a 200 KB line of `[`, `](` or `[[a` is parsed in linear time", () => {
    for (const unit of ["[", "](", "[[a", "- [", " "]) {
      const line = `- [x${unit.repeat(Math.ceil(200_000 / unit.length))}`;
      const report = parseWikiIndexWithReport(`## Concepts\n${line}\n## ${" ".repeat(200_000)}x`);
      expect(report.entries).toEqual([]);
      expect(report.problems.length).toBe(1);
    }
  });
});
