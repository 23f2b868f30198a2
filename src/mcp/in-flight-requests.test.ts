import { afterEach, describe, expect, it, vi } from "vitest";
import { allObservers, InFlightRequests } from "./in-flight-requests.js";

const request = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "tools/call" });
const answer = (id: number) => ({ jsonrpc: "2.0" as const, id, result: {} });

afterEach(() => {
  vi.useRealTimers();
});

describe("InFlightRequests", () => {
  it("counts requests until their answers; notifications and requests sent do not count", async () => {
    const inFlight = new InFlightRequests();
    inFlight.received(request(1));
    inFlight.received(request(2));
    inFlight.received({ jsonrpc: "2.0", method: "notifications/initialized" });
    inFlight.sent({ jsonrpc: "2.0", method: "notifications/message", params: {} });
    expect(inFlight.size).toBe(2);
    let settled = false;
    const waiting = inFlight.settled(60_000).then(() => {
      settled = true;
    });
    inFlight.sent(answer(1));
    await Promise.resolve();
    expect(settled).toBe(false);
    inFlight.sent(answer(2));
    await waiting;
    expect(inFlight.size).toBe(0);
  });

  it("resolves at once with nothing in flight, and at the cap when an answer never comes", async () => {
    vi.useFakeTimers();
    const inFlight = new InFlightRequests();
    await inFlight.settled(10);
    inFlight.received(request(7));
    let settled = false;
    const waiting = inFlight.settled(5_000).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(settled).toBe(true);
  });

  it("allObservers tells each observer in turn", () => {
    const seen: string[] = [];
    const observer = (name: string) => ({
      received: () => seen.push(`${name} received`),
      sent: () => seen.push(`${name} sent`),
    });
    const both = allObservers(observer("a"), observer("b"));
    both.received(request(1));
    both.sent(answer(1));
    expect(seen).toEqual(["a received", "b received", "a sent", "b sent"]);
  });
});
