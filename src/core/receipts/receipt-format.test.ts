import { describe, expect, it } from "vitest";
import { parseSince } from "./receipt.js";
import { formatReceipts, formatWhy, printable } from "./receipt-format.js";
import type { WhyAnswer } from "./why.js";

describe("receipts as printed", () => {
  it("prints control characters and bidi overrides of a recorded text as escapes", () => {
    expect(printable("a\u001b]0;pwned\u0007b\u202ec")).toBe("a\\u{1b}]0;pwned\\u{7}b\\u{202e}c");
    expect(printable("plain “текст”")).toBe("plain “текст”");
    const lines = formatReceipts(
      {
        items: [
          {
            id: "7",
            at: "2026-12-01T10:00:00.000Z",
            user: "anna",
            client: "claude-code:UserPromptSubmit",
            session: "s\u001b[2J",
            query: "clear\u001b[2J",
            tool: null,
            offset: 0,
            limit: 10,
            total: 0,
            hits: [],
          },
        ],
        next_cursor: null,
      },
      "en",
    );
    expect(lines.join("\n")).not.toContain("\u001b");
  });

  it("refuses a negative since", () => {
    expect(() => parseSince("-5")).toThrow(/since/);
    expect(parseSince("0")).toBe(0);
  });

  it("why names the unmet mechanisms of an unreachable entry, and prints no such line when there are none", () => {
    const answer: WhyAnswer = {
      id: "0190f5a4-3b2c-7d10-8a11-00000000000a",
      repo: "acme/app",
      path: ".gitriver/knowledge/a.md",
      verdict: "unreachable",
      reachable: false,
      unmet_mechanisms: ["on_path"],
      contract: { words: [], tools: [] },
      surfaced: [],
      outranked: [],
      receipts_checked: 0,
    };
    for (const lang of ["en", "ru"] as const) {
      expect(formatWhy(answer, lang)[2]).toBe(
        lang === "en" ? "unmet mechanisms: on_path" : "нет механизмов: on_path",
      );
      const none = formatWhy({ ...answer, verdict: "no_contract", unmet_mechanisms: [] }, lang);
      expect(none.filter((line) => /unmet|нет механизмов/.test(line))).toEqual([]);
      expect(none[2]).toBe(lang === "en" ? "contract: —" : "контракт: —");
    }
  });
});
