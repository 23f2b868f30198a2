import { describe, expect, it } from "vitest";
import { jsonResult, MCP_ANSWER_BUDGET_BYTES } from "./tool-result.js";

describe("jsonResult: every MCP answer under a byte budget", () => {
  it("answers up to 2 MiB of JSON; a larger answer is refused with answer_too_large", () => {
    expect(MCP_ANSWER_BUDGET_BYTES).toBe(2 * 1024 * 1024);
    const ok = jsonResult({ text: "x".repeat(1024 * 1024) });
    expect(ok.structuredContent).toBeDefined();
    // A 12.6 MB page (what made a client drop the session) is never sent.
    expect(() => jsonResult({ text: "x".repeat(12_600_000) })).toThrow(
      expect.objectContaining({
        code: "answer_too_large",
        message: expect.stringContaining("over the 2097152-byte budget"),
      }),
    );
  });
});
