import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LoreError } from "../errors/lore-error.js";
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
    // `a`, `or`, `not` are stop words: left out, the operators with them.
    expect(fts("a NEAR b OR NOT c")).toEqual(['"near"', '"b"', '"c"']);
    expect(orExpression(parseSearchQuery("x y").terms)).toBe('"x" OR "y"');
  });

  it("leaves stop words out unless the query holds nothing else", () => {
    expect(fts("how do I rotate the database password")).toEqual([
      '"rotat"',
      '"databas"',
      '"password"',
    ]);
    expect(fts("деплоить в пятницу")).toEqual(['"депл"', '"пятниц"']);
    expect(fts("как в")).toEqual(['"как"', '"в"']);
    expect(fts("Как И ЧТО")).toEqual(['"как"', '"и"', '"чт"']);
    expect(parseSearchQuery("как в").stopWordsOnly).toBe(true);
    const query = parseSearchQuery("roll back the release");
    expect(query.stems).toEqual(["roll", "back", "the", "releas"]);
    expect(query.keys).toEqual(["roll", "back", "releas"]);
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
