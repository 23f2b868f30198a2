import { describe, expect, it } from "vitest";
import { isLoreError } from "../errors/lore-error.js";
import { DAILY_DAYS_DEFAULT, dayWindow, fillDays, resolveDays } from "./usage-days.js";

describe("daily usage", () => {
  it("the window ends with today's UTC day, oldest first, across a month and a year", () => {
    const now = Date.parse("2027-01-01T23:59:59.999Z");
    expect(dayWindow(now, 3)).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"]);
    expect(dayWindow(Date.parse("2028-03-01T00:00:00Z"), 2)).toEqual(["2028-02-29", "2028-03-01"]);
    expect(dayWindow(now, 366)).toHaveLength(366);
  });

  it("fills zeros and drops days outside the window", () => {
    const window = ["2026-12-30", "2026-12-31", "2027-01-01"];
    expect(
      fillDays(window, [
        { day: "2026-12-29", shown: 9, read: 9 },
        { day: "2026-12-31", shown: 2, read: 1 },
      ]),
    ).toEqual([
      { day: "2026-12-30", shown: 0, read: 0 },
      { day: "2026-12-31", shown: 2, read: 1 },
      { day: "2027-01-01", shown: 0, read: 0 },
    ]);
  });

  it("days: 1 to 366, default 30; anything else is invalid_input naming days", () => {
    expect(resolveDays(undefined)).toBe(DAILY_DAYS_DEFAULT);
    expect(resolveDays(1)).toBe(1);
    expect(resolveDays(366)).toBe(366);
    for (const bad of [0, 367, 1.5, Number.NaN, -1]) {
      try {
        resolveDays(bad);
        expect.unreachable();
      } catch (error) {
        expect(isLoreError(error) && error.code).toBe("invalid_input");
        expect(isLoreError(error) && error.data).toEqual({ field: "days" });
      }
    }
  });
});
