import { describe, expect, it } from "vitest";
import { formatWikiPage, pageTitle, parseWikiPage, wikiPageTitle } from "./wiki-page.js";

describe("wiki pages", () => {
  it("reads title, type, sources and updated leniently", () => {
    const page = parseWikiPage(
      "---\r\ntitle: Yarn on Windows\r\ntype: concepts\r\nsources: https://x\r\nupdated: 2026-04-30\r\nextra: 1\r\n---\r\n\r\nbody text\r\n",
    );
    expect(page).toEqual({
      meta: {
        title: "Yarn on Windows",
        type: "concepts",
        sources: ["https://x"],
        updated: "2026-04-30",
      },
      body: "body text\n",
    });
    expect(wikiPageTitle(page, "index title")).toBe("Yarn on Windows");
    expect(pageTitle("---\ntitle: T\n---\nb")).toBe("T");
    expect(pageTitle("no frontmatter")).toBeUndefined();
  });

  it("no frontmatter, broken or unterminated frontmatter: body kept, title from the index", () => {
    expect(parseWikiPage("# Just text\n")).toEqual({ meta: {}, body: "# Just text\n" });
    const broken = parseWikiPage("---\ntitle: [unclosed\n---\nbody\n");
    expect(broken.meta).toEqual({});
    expect(broken.body).toBe("body\n");
    expect(broken.problem).toBeDefined();
    expect(wikiPageTitle(broken, "From index")).toBe("From index");
    expect(parseWikiPage("---\ntitle: x\n").problem).toContain("never closed");
    expect(parseWikiPage("---\ntitle: [a, b]\nsources: [1, {x: y}]\n---\nb").meta).toEqual({
      sources: ["1"],
    });
  });

  it("formats a page that reads back the same", () => {
    const meta = {
      title: "Ёлка: символ",
      type: "entities",
      sources: ["a.md"],
      updated: "2026-05-01",
    };
    const text = formatWikiPage({ ...meta, body: "\nBody\n\n" });
    expect(text).toBe(
      "---\ntitle: 'Ёлка: символ'\ntype: entities\nsources:\n  - a.md\nupdated: '2026-05-01'\n---\n\nBody\n",
    );
    expect(parseWikiPage(text)).toEqual({ meta, body: "Body\n" });
    expect(formatWikiPage({ body: "only body" })).toBe("only body\n");
  });
});

describe("formatWikiPage call forms", () => {
  it("takes (meta, body) as well as ({ ...meta, body })", () => {
    expect(formatWikiPage({ title: "T" }, "b")).toBe(formatWikiPage({ title: "T", body: "b" }));
  });
});
