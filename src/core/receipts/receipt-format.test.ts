import { describe, expect, it } from "vitest";
import { parseSince } from "./receipt.js";
import { formatReceipts, printable } from "./receipt-format.js";

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
});
