import { describe, expect, it } from "vitest";
import { IDLE_SCAVENGE_FILL, IdleScavenge, youngGenerationFill } from "./idle-scavenge.js";

const answer = { jsonrpc: "2.0" as const, id: 1, result: {} };
const request = { jsonrpc: "2.0" as const, id: 2, method: "tools/list" };
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Allocates short-lived objects until the young generation is at least `fill` full. */
function fillYoung(fill: number): void {
  let junk: unknown[] = [];
  for (let i = 0; i < 1_000_000 && youngGenerationFill() < fill; i++) {
    junk.push({ i, text: `x${i}` });
    if (junk.length > 1_000) junk = [];
  }
}

describe("idle scavenge", () => {
  it("reads how full the young generation is, between 0 and 1", () => {
    const fill = youngGenerationFill();
    expect(fill).toBeGreaterThanOrEqual(0);
    expect(fill).toBeLessThanOrEqual(1);
  });

  it("collects after an answer when nothing is in flight and the young generation is full enough", async () => {
    const calls: unknown[] = [];
    const idle = new IdleScavenge(
      () => false,
      (options) => calls.push(options),
    );
    fillYoung(IDLE_SCAVENGE_FILL + 0.05);
    idle.sent(answer);
    idle.sent(answer); // one collection per turn, however many answers
    await turn();
    expect(calls).toEqual([{ type: "minor" }]);
    expect(idle.collections).toBe(1);
  });

  it("does not collect while a request waits, nor for a notification or request it sends", async () => {
    let busy = true;
    const calls: unknown[] = [];
    const idle = new IdleScavenge(
      () => busy,
      (options) => calls.push(options),
    );
    fillYoung(IDLE_SCAVENGE_FILL + 0.05);
    idle.sent(answer);
    await turn();
    busy = false;
    idle.sent(request);
    await turn();
    expect(calls).toEqual([]);
  });

  it("does nothing without a collector, and V8's own is reachable here", async () => {
    const idle = new IdleScavenge(() => false, null);
    idle.sent(answer);
    await turn();
    expect(idle.collections).toBe(0);
    const real = new IdleScavenge(() => false);
    fillYoung(IDLE_SCAVENGE_FILL + 0.05);
    real.sent(answer);
    await turn();
    expect(real.collections).toBe(1);
  });
});
