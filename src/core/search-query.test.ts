import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoreError } from "./lore-error.js";
import { MAX_QUERY_WORDS, orExpression, parseSearchQuery } from "./search-query.js";

const fts = (query: string) => parseSearchQuery(query).terms.map((term) => term.fts);

describe("parseSearchQuery", () => {
  it("quotes each word's stem and makes glued words phrases", () => {
    expect(fts("pre-receive")).toEqual(['"pre receiv"']);
    expect(fts("don't")).toEqual(['"don t"']);
    expect(fts("C++")).toEqual(['"c"']);
    expect(fts("(draft)")).toEqual(['"draft"']);
    expect(fts("Deploying deploys")).toEqual(['"deploy"']);
  });

  it("keeps operators as plain words", () => {
    expect(fts("AND")).toEqual(['"and"']);
    expect(fts("a NEAR b OR NOT c")).toEqual(['"a"', '"near"', '"b"', '"or"', '"not"', '"c"']);
    expect(orExpression(parseSearchQuery("x y").terms)).toBe('"x" OR "y"');
  });

  it("keeps a trailing star as a prefix query on the typed token or its shorter stem", () => {
    expect(fts("deplo*")).toEqual(['"deplo" *']);
    expect(fts("откатывани*")).toEqual(['"откатыван" *']);
    expect(fts("pre-rec*")).toEqual(['"pre rec" *']);
    expect(fts("de*")).toEqual(['"de"']);
    expect(fts("*deploy")).toEqual(['"deploy"']);
  });

  it("refuses a query without words with empty_query", () => {
    for (const query of ["", "   ", '"', "*", "()", "++ --"]) {
      expect(() => parseSearchQuery(query)).toThrow(LoreError);
      try {
        parseSearchQuery(query);
      } catch (error) {
        expect((error as LoreError).code).toBe("empty_query");
      }
    }
  });

  it("gives the query's stems in order for contract matching", () => {
    expect(parseSearchQuery("как откатить релиз").stems).toEqual(["как", "откат", "релиз"]);
  });

  it("keeps at most MAX_QUERY_WORDS distinct words", () => {
    const words = Array.from({ length: 50 }, (_, i) => `w${i}`).join(" ");
    expect(parseSearchQuery(words).terms).toHaveLength(MAX_QUERY_WORDS);
  });

  it("never lets a quote through unescaped (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (query) => {
        try {
          for (const term of parseSearchQuery(query).terms) {
            const inner = term.fts.replace(/ \*$/, "");
            expect(inner.startsWith('"') && inner.endsWith('"')).toBe(true);
            expect(inner.slice(1, -1).includes('"')).toBe(false);
          }
        } catch (error) {
          expect((error as LoreError).code).toBe("empty_query");
        }
      }),
    );
  });
});
