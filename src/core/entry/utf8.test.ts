import { describe, expect, it } from "vitest";
import { invalidUtf8Offset, loneSurrogateIndex, utf8ByteLength } from "./utf8.js";

describe("utf8ByteLength", () => {
  it("matches TextEncoder", () => {
    for (const text of ["", "abc", "ёлка", "😀x", "a\u0800b", "日本語"]) {
      expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe("invalidUtf8Offset", () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0xd1, 0x91], -1],
    [[0xf0, 0x9f, 0x98, 0x80], -1],
    [[0x61, 0xff], 1],
    [[0x61, 0xc0, 0x80], 1],
    [[0xe0, 0x80, 0x80], 0],
    [[0xed, 0xa0, 0x80], 0],
    [[0xf4, 0x90, 0x80, 0x80], 0],
    [[0x61, 0x62, 0xd1], 2],
    [[0x80], 0],
  ])("%j → %i", (bytes, offset) => {
    expect(invalidUtf8Offset(new Uint8Array(bytes))).toBe(offset);
  });
});

describe("loneSurrogateIndex", () => {
  it("finds lone halves only", () => {
    expect(loneSurrogateIndex("a😀b")).toBe(-1);
    expect(loneSurrogateIndex("ab\uD83D")).toBe(2);
    expect(loneSurrogateIndex("\uDE00x")).toBe(0);
  });
});
