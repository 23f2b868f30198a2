import { describe, expect, it } from "vitest";
import { SignInLimit } from "./sign-in-limit.js";

describe("SignInLimit", () => {
  it("lets an address fail `limit` times a minute, then says how long to wait; other addresses are free", () => {
    const limit = new SignInLimit(3);
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limit.retryAfter("a", t)).toBe(0);
      limit.fail("a", t);
    }
    expect(limit.retryAfter("a", t)).toBe(60);
    expect(limit.retryAfter("a", t + 59_500)).toBe(1);
    expect(limit.retryAfter("b", t)).toBe(0);
    // A new minute, a new window.
    expect(limit.retryAfter("a", t + 60_000)).toBe(0);
    limit.fail("a", t + 60_000);
    expect(limit.retryAfter("a", t + 60_000)).toBe(0);
  });
});
