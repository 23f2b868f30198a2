import { describe, expect, it } from "vitest";
import { isUuidV7, uuidV7Successor } from "./uuid7.js";

describe("isUuidV7 (UUIDv7 ids)", () => {
  it.each([
    "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
    "01a00000-0000-7000-8000-000000000001",
    "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081",
    "0190F5A4-3B2C-7D10-AA11-2B3C4D5E6F70",
    "0190f5a4-3b2c-7d10-bb11-2b3c4d5e6f70",
  ])("accepts %s", (id) => {
    expect(isUuidV7(id)).toBe(true);
  });

  it.each([
    ["version 4", "0190f5a4-3b2c-4d10-8a11-2b3c4d5e6f70"],
    ["variant nibble d", "0190f5a4-3b2c-7d10-da11-2b3c4d5e6f70"],
    ["variant nibble c", "0190f5a4-3b2c-7d10-ca11-2b3c4d5e6f70"],
    ["variant nibble 7", "0190f5a4-3b2c-7d10-7a11-2b3c4d5e6f70"],
    ["nil", "00000000-0000-0000-0000-000000000000"],
    ["max", "ffffffff-ffff-ffff-ffff-ffffffffffff"],
    ["no hyphens", "0190f5a43b2c7d108a112b3c4d5e6f70"],
    ["braces", "{0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70}"],
    ["urn", "urn:uuid:0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70"],
    ["trailing newline", "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70\n"],
    ["non-hex", "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6fzz"],
    ["empty", ""],
  ])("rejects %s", (_name, id) => {
    expect(isUuidV7(id)).toBe(false);
  });
});

describe("uuidV7Successor", () => {
  it("adds one in the random tail", () => {
    expect(uuidV7Successor("0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70")).toBe(
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f71",
    );
  });

  it("carries across the variant and version bits", () => {
    expect(uuidV7Successor("0190f5a4-3b2c-7d10-bfff-ffffffffffff")).toBe(
      "0190f5a4-3b2c-7d11-8000-000000000000",
    );
    expect(uuidV7Successor("0190f5a4-3b2c-7fff-bfff-ffffffffffff")).toBe(
      "0190f5a4-3b2d-7000-8000-000000000000",
    );
  });

  it("always gives a greater UUIDv7", () => {
    for (const id of [
      "01a00000-0000-7000-8000-000000000001",
      "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081",
    ]) {
      const next = uuidV7Successor(id);
      expect(isUuidV7(next)).toBe(true);
      expect(next > id).toBe(true);
    }
  });
});
