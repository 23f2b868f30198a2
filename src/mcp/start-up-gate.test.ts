import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StartUpGate } from "./start-up-gate.js";

const request = (id: number, method: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  id,
  method,
  params: {},
});
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });
const initialized: JSONRPCMessage = { jsonrpc: "2.0", method: "notifications/initialized" };

/** Whether the gate opened, after the microtasks run. */
async function isOpen(gate: StartUpGate): Promise<boolean> {
  let open = false;
  void gate.opened.then(() => {
    open = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return open;
}

describe("the start-up gate of lore mcp", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens on the answer to the first tools/call, not on initialize's or tools/list's", async () => {
    const gate = new StartUpGate({ idleMs: 200, capMs: 1000 });
    gate.arm();
    gate.received(request(1, "initialize"));
    gate.sent(answer(1));
    gate.received(initialized);
    gate.received(request(2, "tools/list"));
    gate.sent(answer(2));
    gate.received(request(3, "tools/call"));
    expect(await isOpen(gate)).toBe(false);
    gate.sent(answer(3));
    expect(await isOpen(gate)).toBe(true);
  });

  it("opens after the idle time with nothing in flight, counted from arm", async () => {
    const gate = new StartUpGate({ idleMs: 200, capMs: 1000 });
    gate.arm();
    gate.received(request(1, "initialize"));
    vi.advanceTimersByTime(500);
    // A request in flight is not idleness.
    expect(await isOpen(gate)).toBe(false);
    gate.sent(answer(1));
    vi.advanceTimersByTime(199);
    expect(await isOpen(gate)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await isOpen(gate)).toBe(true);
  });

  it("opens at the cap however busy the session is", async () => {
    const gate = new StartUpGate({ idleMs: 200, capMs: 1000 });
    gate.arm();
    gate.received(request(1, "tools/list"));
    vi.advanceTimersByTime(999);
    expect(await isOpen(gate)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await isOpen(gate)).toBe(true);
  });

  it("never opens before arm, nor after close", async () => {
    const idle = new StartUpGate({ idleMs: 200, capMs: 1000 });
    vi.advanceTimersByTime(5000);
    expect(await isOpen(idle)).toBe(false);
    const closed = new StartUpGate({ idleMs: 200, capMs: 1000 });
    closed.arm();
    closed.close();
    vi.advanceTimersByTime(5000);
    closed.received(request(1, "tools/call"));
    closed.sent(answer(1));
    expect(await isOpen(closed)).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
