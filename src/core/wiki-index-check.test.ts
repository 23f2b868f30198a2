import { describe, expect, it } from "vitest";
import { freshIndexMd, insertIndexEntry } from "./wiki-index.js";
import { checkWikiIndex } from "./wiki-index-check.js";

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
    expect(checkWikiIndex("")).toEqual({ entries: [], sections: [], unread: [], canonical: false });
    expect(checkWikiIndex("not markdown at all").unread).toEqual([]);
  });
});
