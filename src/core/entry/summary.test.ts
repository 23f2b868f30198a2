import { describe, expect, it } from "vitest";
import {
  capUtf8,
  deriveSummary,
  firstParagraph,
  foldWhitespace,
  resolveSummary,
} from "./summary.js";
import { utf8ByteLength } from "./utf8.js";

describe("deriveSummary", () => {
  it("takes the first paragraph, whitespace folded", () => {
    const body = "\n\n  First  line\n\tcontinues here.  \n\nSecond paragraph.\n";
    expect(deriveSummary(body)).toEqual({
      summary: "First line continues here.",
      atCap: false,
      empty: false,
    });
  });

  it("ends the paragraph at a line of spaces and tabs", () => {
    expect(firstParagraph("a\nb\n \t \nc")).toBe("a\nb");
  });

  it("caps x + 300 × а at x + 255 × а, 511 bytes (the summary cap)", () => {
    const result = deriveSummary(`x${"а".repeat(300)}\n`);
    expect(result.summary).toBe(`x${"а".repeat(255)}`);
    expect(utf8ByteLength(result.summary)).toBe(511);
    expect(result.atCap).toBe(true);
  });

  it("caps ab + 200 × 😀 at ab + 127 × 😀, 510 bytes (the summary cap)", () => {
    const result = deriveSummary(`ab${"😀".repeat(200)}`);
    expect(result.summary).toBe(`ab${"😀".repeat(127)}`);
    expect(utf8ByteLength(result.summary)).toBe(510);
    expect(result.summary).not.toContain("\uFFFD");
    expect(result.summary).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(result.atCap).toBe(true);
  });

  it("never cuts a grapheme when it can help it", () => {
    const family = "👨‍👩‍👧‍👦"; // 25 bytes, one grapheme
    const { text, cut } = capUtf8(`${"a".repeat(500)}${family}`, 512);
    expect(cut).toBe(true);
    expect(text).toBe("a".repeat(500));
  });

  it("cuts on a code point when one grapheme is over the cap", () => {
    const { text } = capUtf8(`a${"\u0301".repeat(400)}`, 512);
    expect(utf8ByteLength(text)).toBeLessThanOrEqual(512);
    expect(text.length).toBeGreaterThan(200);
  });

  it("keeps exactly 512 bytes", () => {
    const text = "a".repeat(512);
    expect(deriveSummary(text)).toEqual({ summary: text, atCap: false, empty: false });
    expect(deriveSummary(`${text}b`).summary).toBe(text);
  });

  it("marks a fragment without letters or digits as empty", () => {
    expect(deriveSummary("---\n\nText").empty).toBe(true);
    expect(deriveSummary("# Title\n").empty).toBe(false);
  });
});

describe("resolveSummary", () => {
  it("uses an override that says something else", () => {
    expect(resolveSummary("Prepare the database", "Migrations need the owner.\n")).toEqual({
      summary: "Prepare the database",
      notes: [],
    });
  });

  it("refuses an override equal after whitespace folding", () => {
    expect(
      resolveSummary("  Migrations   need\nthe owner. ", "Migrations need\n  the owner.\n"),
    ).toEqual({
      summary: "Migrations need the owner.",
      notes: [{ code: "summary_repeats_body", params: {} }],
    });
  });

  it("refuses an override equal to a paragraph over the cap, notes the cap", () => {
    const paragraph = "word ".repeat(200).trim();
    const { summary, notes } = resolveSummary(paragraph, paragraph);
    expect(utf8ByteLength(summary)).toBeLessThanOrEqual(512);
    expect(notes.map((n) => n.code)).toEqual(["summary_repeats_body", "summary_at_cap"]);
  });

  it("cuts a long override and notes it", () => {
    const { summary, notes } = resolveSummary("я".repeat(300), "Body.");
    expect(summary).toBe("я".repeat(256));
    expect(notes).toEqual([{ code: "summary_too_long", params: { limit: 512 } }]);
  });

  it("folds whitespace in foldWhitespace", () => {
    expect(foldWhitespace(" a \u00a0\n b\t")).toBe("a b");
  });
});
