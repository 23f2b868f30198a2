import { describe, expect, it } from "vitest";
import { JsonRpcIdScanner, type ScannedId } from "./json-rpc-id-scanner.js";

/** Scans `text` fed in pieces of `size` bytes. */
function scan(text: string, size = Number.POSITIVE_INFINITY): ScannedId | null {
  const bytes = Buffer.from(text, "utf8");
  const scanner = new JsonRpcIdScanner();
  const step = Math.min(size, bytes.length || 1);
  for (let i = 0; i < bytes.length; i += step) scanner.feed(bytes.subarray(i, i + step));
  return scanner.id();
}

describe("JsonRpcIdScanner", () => {
  it("finds the id first or last, as the MCP SDK writes it (id last)", () => {
    expect(scan('{"jsonrpc":"2.0","id":7,"method":"ping"}')).toBe(7);
    expect(scan('{"method":"tools/call","params":{"a":"b"},"jsonrpc":"2.0","id":42}')).toBe(42);
    expect(scan(' { "id" : "req-1" , "method":"x"}')).toBe("req-1");
  });

  it("takes only the top-level id, not one nested or inside a string", () => {
    expect(scan('{"params":{"id":1},"method":"x"}')).toBeNull();
    expect(scan('{"params":{"arguments":{"q":"\\"id\\":5"}},"id":9}')).toBe(9);
    expect(scan('{"params":[{"id":3}],"x\\"id":4,"id":"a\\"b"}')).toBe('a"b');
  });

  it("has no id for a batch, a notification, a null or fractional id, or a non-object", () => {
    expect(scan('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toBeNull();
    expect(scan('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toBeNull();
    expect(scan('{"id":null}')).toBeNull();
    expect(scan('{"id":1.5}')).toBeNull();
    expect(scan('{"id":{"a":1}}')).toBeNull();
    expect(scan("xxxxxxxx")).toBeNull();
  });

  it("gives the same id however the message is split, even inside an escape", () => {
    const text = '{"params":{"q":"a\\\\\\"b\\\\","id":0},"method":"m","id":"x\\\\"}';
    expect(scan(text)).toBe("x\\");
    for (let size = 1; size <= 8; size++) expect(scan(text, size)).toBe("x\\");
  });

  it("finds the id after megabytes of string, in 64 KiB pieces", () => {
    const text = `{"params":{"query":"${"ж\\\\".repeat(3_000_000)}"},"jsonrpc":"2.0","id":12}`;
    expect(scan(text, 65_536)).toBe(12);
  });
});
