import { describe, expect, it } from "vitest";
import { FLUSH_TIMING, flushWait } from "./flush-timing.js";

const timing = { delayMs: 250, idleMs: 40, maxWaitMs: 2_000 };

describe("flushWait", () => {
  it("runs the write after a pause without new items", () => {
    expect(flushWait(250, 0, 200, timing)).toBe(0);
    expect(flushWait(250, 0, 210, timing)).toBe(0);
  });

  it("waits while items keep coming, until the pause could have come", () => {
    expect(flushWait(250, 0, 249, timing)).toBe(39);
    expect(flushWait(250, 0, 230, timing)).toBe(20);
  });

  it("runs anyway once the oldest item waited the longest", () => {
    expect(flushWait(2_000, 0, 1_999, timing)).toBe(0);
    expect(flushWait(1_990, 0, 1_989, timing)).toBe(10);
  });

  it("uses the shared timing by default", () => {
    expect(FLUSH_TIMING.idleMs).toBeLessThan(FLUSH_TIMING.delayMs);
    expect(flushWait(10_000, 0, 9_999)).toBe(0);
  });
});
