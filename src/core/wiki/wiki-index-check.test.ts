import { describe, expect, it } from "vitest";
import { freshIndexMd, insertIndexEntry } from "./wiki-index.js";
import { checkWikiIndex, hasMarkdownLink, hasWikilink } from "./wiki-index-check.js";

describe("checkWikiIndex", () => {
  it("a canonical index reads whole, the overview link is not reported", () => {
    const md = insertIndexEntry(freshIndexMd(), { slug: "concepts/foo", title: "Foo" });
    const report = checkWikiIndex(md);
    expect(report.entries).toEqual([{ slug: "concepts/foo", type: "concepts", title: "Foo" }]);
    expect(report.unread).toEqual([]);
    expect(report.canonical).toBe(true);
    expect(report.sections).toEqual(["Entities", "Concepts", "Packages", "Sources", "Raw"]);
  });

  it("reports wikilinks, table rows, links outside type sections and the parser's problems", () => {
    const md = [
      "# Index",
      "",
      "## Modules",
      "",
      "- [modules/signals.md](modules/signals.md) — signals",
      "1. **[Hooks](./patterns/hooks.md)** — hooks",
      "",
      "## Entities",
      "",
      "- [[keycloak]] — IAM",
      "- [Ёлка (дерево](entities/yolka.md — broken",
      "- [ok](entities/ok.md) — OK",
      "",
      "| Type | Slug | Path |",
      "|------|------|------|",
      "| concept | search | concepts/search.md |",
      "",
      "Prose with a [link](https://example.com).",
    ].join("\n");
    const report = checkWikiIndex(md);
    expect(report.entries.map((e) => e.slug)).toEqual(["entities/ok"]);
    expect(report.unread.map((u) => [u.line, u.code])).toEqual([
      [5, "link_outside_type_section"],
      [6, "link_outside_type_section"],
      [10, "wikilink"],
      [11, "unbalanced_link_target"],
      [16, "table_row"],
    ]);
    expect(report.canonical).toBe(false);
  });

  it("empty and non-markdown input: nothing read, nothing reported", () => {
    expect(checkWikiIndex("")).toEqual({
      entries: [],
      sections: [],
      unread: [],
      warnings: [],
      canonical: false,
    });
    expect(checkWikiIndex("not markdown at all").unread).toEqual([]);
  });
});

describe("checkWikiIndex on hostile lines (linear, not quadratic)", () => {
  it("200 KB lines full of `[`, `](` or `[[a` are checked and reported", () => {
    const n = 200_000;
    const lines = [
      "## Modules",
      `- ${"[".repeat(n)}`,
      `- ${"](".repeat(n / 2)}`,
      `- ${"[[a".repeat(Math.ceil(n / 3))}`,
      `- ${"](x.md".repeat(n / 6)}`,
      `| ${" ".repeat(n)}[[`,
    ];
    const report = checkWikiIndex(lines.join("\n"));
    expect(report.unread.map((u) => [u.line, u.code])).toEqual([[6, "table_row"]]);
    expect(hasWikilink(`${"[[a".repeat(10)}]]`)).toBe(true);
    expect(hasWikilink("[[]] [x]]")).toBe(false);
    expect(hasMarkdownLink("see ](a.md#top) and")).toBe(true);
    expect(hasMarkdownLink("](a.txt) ](b.md")).toBe(false);
  });

  it("decorated headings count as type sections and their warnings are reported", () => {
    const report = checkWikiIndex(
      "## Concepts · 12\n\n- [Caching](concepts/caching.md) -- Cache rules\n",
    );
    expect(report.sections).toEqual(["Concepts"]);
    expect(report.unread).toEqual([]);
    expect(report.warnings.map((w) => w.code)).toEqual(["decorated_heading", "title_separator"]);
  });
});
