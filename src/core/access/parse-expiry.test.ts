import { describe, expect, it } from "vitest";
import type { LoreError } from "../errors/lore-error.js";
import { parseExpiry } from "./parse-expiry.js";

describe("parseExpiry", () => {
  it("reads minutes, hours and days as ms", () => {
    expect(parseExpiry("30d")).toBe(30 * 24 * 60 * 60 * 1000);
    expect(parseExpiry("12h")).toBe(12 * 60 * 60 * 1000);
    expect(parseExpiry("90m")).toBe(90 * 60 * 1000);
    expect(parseExpiry("3650d")).toBe(3650 * 86_400_000);
  });

  it.each(["", "30", "d", "0d", "-1d", "1.5h", "30 days", "3651d", "1w", "1e3d"])(
    "refuses %j",
    (text) => {
      let error: LoreError | undefined;
      try {
        parseExpiry(text);
      } catch (caught) {
        error = caught as LoreError;
      }
      expect(error?.code).toBe("invalid_input");
      expect(error?.message).toContain("give a whole number and m, h or d (90m, 12h, 30d)");
    },
  );
});
