import { describe, expect, it } from "vitest";
import { expected429, type TimedCall } from "./expected-429.js";

const W = 60_000;

/** `n` calls of `tag`, each sent and answered within the window starting at `start`. */
function inside(tag: string, start: number, n: number): TimedCall[] {
  return Array.from({ length: n }, (_, i) => ({
    tag,
    sentAt: start + 10 + i,
    answeredAt: start + 20 + i,
  }));
}

describe("expected429", () => {
  it("is the calls beyond the limit per token and window", () => {
    const calls = [
      ...inside("a", 10 * W, 605),
      ...inside("a", 11 * W, 3),
      ...inside("b", 10 * W, 600),
      ...inside("c", 11 * W, 700),
    ];
    expect(expected429(calls, 600)).toEqual([105, 105]);
  });

  it("gives a range when calls straddle a window edge", () => {
    // 599 inside the first window, 2 sent before its end and answered after: 0 to 1 over.
    const straddle = [0, 1].map(() => ({ tag: "a", sentAt: 11 * W - 5, answeredAt: 11 * W + 5 }));
    expect(expected429([...inside("a", 10 * W, 599), ...straddle], 600)).toEqual([0, 1]);
    // Both windows full already: each straddling call is over either way.
    const full = [...inside("a", 10 * W, 600), ...inside("a", 11 * W, 600), ...straddle];
    expect(expected429(full, 600)).toEqual([2, 2]);
  });

  it("is zero without calls", () => {
    expect(expected429([], 600)).toEqual([0, 0]);
  });
});
