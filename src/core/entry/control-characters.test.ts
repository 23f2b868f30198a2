import { describe, expect, it } from "vitest";
import { findControlCharacter } from "./field-diagnostic.js";
import { parseEntry } from "./parse-entry.js";
import { deriveSummary } from "./summary.js";

/**
 * Defect C: YAML escapes put control characters (NUL, ESC of a terminal escape, C1) into
 * values that are displayed. In `summary` and in the `words`/`name` of a known mechanism
 * they are *wrong* (file skipped, with a hint); in the body they stay, but the derived
 * summary folds them to spaces.
 */

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const file = (frontmatter: string, body = "Body text.") =>
  `---\nid: ${ID}\n${frontmatter}---\n\n${body}\n`;
const queryWords = (words: string) =>
  `contract:\n  - mechanism: on_query\n    params:\n      words: [${words}]\n`;

describe("control characters in displayed values", () => {
  it.each([
    ["\\u0000", 0x0000],
    ["\\u001b[31mred", 0x001b],
    ["\\r", 0x000d],
    ["\\x7f", 0x007f],
    ["\\x85", 0x0085],
    ["\\u009b", 0x009b],
  ])('summary "ok %s" is invalid_field with a hint naming the character', (written, code) => {
    const text = file(`summary: "ok ${written}"\n${queryWords("deploy")}`);
    for (const mode of ["lenient", "strict"] as const) {
      const result = parseEntry(text, { mode, path: "k/x.md" });
      expect(result.value).toBeUndefined();
      const diagnostic = result.diagnostics.find((d) => d.code === "invalid_field");
      expect(diagnostic?.at).toBe("summary");
      expect(diagnostic?.severity).toBe("error");
      const hex = code.toString(16).toUpperCase().padStart(4, "0");
      expect(diagnostic?.message.en).toBe(
        `“summary” must be a non-empty string — it holds the control character U+${hex} (character 4), which a YAML escape such as "\\u${hex.toLowerCase()}" makes; remove it`,
      );
      expect(diagnostic?.message.ru).toContain(`U+${hex}`);
    }
  });

  it("keeps TAB and LF in a summary", () => {
    const result = parseEntry(file(`summary: "a\\tb\\nc"\n${queryWords("deploy")}`), {
      mode: "strict",
    });
    expect(result.value?.entry.summary).toBe("a\tb\nc");
    expect(result.value?.summary).toBe("a b c");
  });

  it("an on_query word with ESC or NUL is invalid_mechanism_params at that item", () => {
    for (const [words, n] of [
      ['deploy, "\\u001b[31mred"', 1],
      ['"de\\u0000ploy"', 0],
    ] as const) {
      const result = parseEntry(file(queryWords(words)), { mode: "lenient", path: "k/x.md" });
      expect(result.value).toBeUndefined();
      const diagnostic = result.diagnostics.find((d) => d.code === "invalid_mechanism_params");
      expect(diagnostic?.at).toBe(`contract[0].params.words[${n}]`);
      expect(diagnostic?.message.en).toContain(`item ${n + 1} holds the control character U+00`);
    }
  });

  it("an on_tool name with a control character is invalid_mechanism_params", () => {
    const text = file(`contract:\n  - mechanism: on_tool\n    params:\n      name: "Bash\\x9b"\n`);
    const result = parseEntry(text, { mode: "lenient", path: "k/x.md" });
    expect(result.value).toBeUndefined();
    const diagnostic = result.diagnostics.find((d) => d.code === "invalid_mechanism_params");
    expect(diagnostic?.at).toBe("contract[0].params.name");
    expect(diagnostic?.message.en).toContain("the name holds the control character U+009B");
  });

  it("a body keeps its control characters; the derived summary folds them to spaces", () => {
    const body = "Red \u001b[31malert\u0007 and\u0085next\u007f.\n\nMore.";
    const result = parseEntry(file(queryWords("deploy"), body), { mode: "strict" });
    expect(result.value?.entry.body).toBe(`${body}\n`);
    expect(result.value?.summary).toBe("Red [31malert and next .");
    expect(findControlCharacter(result.value?.summary ?? "")).toBeUndefined();
    expect(deriveSummary("\u0000\u001b x").summary).toBe("x");
  });

  it("findControlCharacter: C0 but TAB/LF, DEL, C1; position in code points", () => {
    expect(findControlCharacter("a\tb\nc")).toBeUndefined();
    expect(findControlCharacter("😀\u0001")).toEqual({ code: 1, position: 2 });
    expect(findControlCharacter("\u00a0\u00ff")).toBeUndefined();
    expect(findControlCharacter("x\u009f")).toEqual({ code: 0x9f, position: 2 });
  });
});
