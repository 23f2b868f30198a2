import { v7 } from "uuid";
import { describe, expect, it } from "vitest";
import { isUuidV7 } from "../../core/entry/uuid7.js";
import { createEntryIdMinter, mintEntryId } from "./mint-entry-id.js";

describe("mintEntryId", () => {
  it("case 12: 5,000 ids minted in a tight loop are strictly increasing as strings", () => {
    const ids = Array.from({ length: 5000 }, () => mintEntryId());
    for (const id of ids) expect(isUuidV7(id)).toBe(true);
    for (let i = 1; i < ids.length; i++)
      expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
    expect(new Set(ids).size).toBe(5000);
  });

  it("uuid's own v7 is already monotonic (the minter's guard is a second line)", () => {
    const ids = Array.from({ length: 5000 }, () => v7());
    for (let i = 1; i < ids.length; i++)
      expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
  });

  it("stays increasing when the generator repeats or goes back", () => {
    const given = [
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
      "0180f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
      "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081",
    ];
    const mint = createEntryIdMinter(() => given.shift() as string);
    expect([mint(), mint(), mint(), mint()]).toEqual([
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f71",
      "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f72",
      "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081",
    ]);
  });
});
