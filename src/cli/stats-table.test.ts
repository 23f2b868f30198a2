import { describe, expect, it } from "vitest";
import type { DeadAnswer, UsageAnswer } from "../core/stats/usage-stats.js";
import { formatStats, SUMMARY_WIDTH } from "./stats-table.js";

// The table of `lore stats` (seed 004 "Интерфейс": entry, summary, shown, read, last shown,
// ailment): columns, drafts, a truncated answer, the thresholds of dead, both languages.

const row = {
  id: "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70",
  path: ".gitriver/knowledge/a.md",
  summary: "Roll back with helm rollback",
  shown: 12,
  read: 0,
  last_shown_at: "2026-11-30T08:15:42.123Z",
  last_read_at: null,
};

describe("formatStats", () => {
  it("aligns the columns, numbers to the right, times to the minute, never for null", () => {
    const answer: UsageAnswer = {
      items: [
        row,
        {
          ...row,
          id: "x",
          path: ".gitriver/knowledge/b.md",
          summary: "B",
          shown: 3,
          read: 1,
          last_shown_at: null,
          draft: true,
          branch: "feature/x",
        },
      ],
    };
    expect(formatStats("team", answer, "en")).toEqual([
      "ENTRY                                       SUMMARY                       SHOWN  READ  LAST SHOWN",
      ".gitriver/knowledge/a.md                    Roll back with helm rollback     12     0  2026-11-30 08:15Z",
      ".gitriver/knowledge/b.md [draft feature/x]  B                                 3     1  never",
    ]);
  });

  it("cuts a long summary, says when the answer was truncated, names the thresholds and ailments (ru)", () => {
    const long = "x".repeat(SUMMARY_WIDTH + 10);
    const answer: DeadAnswer = {
      items: [
        {
          ...row,
          summary: long,
          ailment: "unreachable",
          unmet_mechanisms: ["on_path", "on_branch"],
          first_seen_at: "2026-01-01T00:00:00.000Z",
          age_days: 333,
        },
      ],
      partial: "truncated",
      min_shown: 10,
      min_age_days: 30,
    };
    const lines = formatStats("dead", answer, "ru");
    expect(lines[0]).toMatch(/^ЗАПИСЬ +СУТЬ +ПОКАЗАНО +ПРОЧТЕНО +ПОСЛЕДНИЙ ПОКАЗ +НЕДУГ$/);
    expect(lines[1]).toContain(`${"x".repeat(SUMMARY_WIDTH - 1)}…`);
    expect(lines[1]).toMatch(/недостижима \(on_path, on_branch\)$/);
    expect(lines[2]).toBe("(не всё: первые 1 строк — больше не выдаётся)");
    expect(lines[3]).toBe("пороги: min_shown 10, min_age_days 30");
    expect(formatStats("dead", answer, "en")[1]).toMatch(/unreachable \(on_path, on_branch\)$/);
  });

  it("says so when there is nothing, per kind", () => {
    expect(formatStats("me", { items: [] }, "en")).toEqual([
      "no entry of this repository was shown to you or read by you yet",
    ]);
    expect(formatStats("dead", { items: [], min_shown: 2, min_age_days: 0 }, "en")).toEqual([
      "no dead entries",
      "thresholds: min_shown 2, min_age_days 0",
    ]);
  });
});
