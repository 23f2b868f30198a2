import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

// GET …/knowledge/stats/daily over real HTTP on 127.0.0.1, with the server's clock moved
// across UTC midnights: one row per day of the window, the counts on the day they were
// made, the same rights as stats/team (nothing of a hidden repository, not even a zero),
// Pro only.

let team: TeamFixture;
let community: TeamFixture;
let clock = Date.parse("2026-11-28T23:59:00.000Z");

const daily = (repo: string, query = "") =>
  `/api/v1/repos/${repo}/knowledge/stats/daily${query === "" ? "" : `?${query}`}`;
const base = (repo: string) => `/api/v1/repos/${repo}/knowledge`;

beforeAll(async () => {
  team = await startTeamFixture({ edition: "pro", now: () => clock });
  community = await startTeamFixture({ now: () => clock });
});
afterAll(async () => {
  await team?.close();
  await community?.close();
});

const zeros = (days: string[]) => days.map((day) => ({ day, shown: 0, read: 0 }));

describe("stats/daily", () => {
  it("counts each showing and read on its UTC day; one row per day of the window, oldest first, zeros included", async () => {
    const anna = team.tokens.anna;
    const id = IDS["acme/private"];
    // 28 Nov, a minute before midnight: shown twice.
    for (let i = 0; i < 2; i++) {
      expect(
        (await callJson(team.base, anna, "POST", `${base("acme/private")}/shown`, { ids: [id] }))
          .status,
      ).toBe(200);
    }
    // 29 Nov, just after midnight: shown once and read once.
    clock = Date.parse("2026-11-29T00:00:30.000Z");
    expect(
      (await callJson(team.base, anna, "POST", `${base("acme/private")}/shown`, { ids: [id] }))
        .status,
    ).toBe(200);
    expect(
      (await callJson(team.base, anna, "POST", `${base("acme/private")}/entries/${id}/read`))
        .status,
    ).toBe(200);
    // The local write-behind path counts on its day too (queued, flushed before the report).
    team.index.countShown(
      "boris",
      [{ repo: "draft:acme/private", id }],
      Date.parse("2026-11-30T10:00:00Z"),
    );
    // 1 Dec: the report.
    clock = Date.parse("2026-12-01T12:00:00.000Z");
    const answer = await callJson(team.base, anna, "GET", daily("acme/private", "days=5"));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      days: [
        { day: "2026-11-27", shown: 0, read: 0 },
        { day: "2026-11-28", shown: 2, read: 0 },
        { day: "2026-11-29", shown: 1, read: 1 },
        { day: "2026-11-30", shown: 1, read: 0 },
        { day: "2026-12-01", shown: 0, read: 0 },
      ],
    });
    // One entry: echoed; an id nothing was counted for gives zeros.
    const one = await callJson(team.base, anna, "GET", daily("acme/private", `days=5&id=${id}`));
    expect(one.body.id).toBe(id);
    expect(one.body.days).toEqual(answer.body.days);
    const other = await callJson(team.base, anna, "GET", daily("acme/private", "days=2&id=nope"));
    expect(other.body).toEqual({ days: zeros(["2026-11-30", "2026-12-01"]), id: "nope" });
    // The default window is 30 days, ending today; 366 at most.
    const month = await callJson(team.base, anna, "GET", daily("acme/private"));
    expect(month.body.days).toHaveLength(30);
    expect(month.body.days[0].day).toBe("2026-11-02");
    expect(month.body.days[29]).toEqual({ day: "2026-12-01", shown: 0, read: 0 });
    expect(
      (await callJson(team.base, anna, "GET", daily("acme/private", "days=366"))).body.days,
    ).toHaveLength(366);
  });

  it("refuses days out of range and unknown parameters", async () => {
    for (const days of ["0", "367", "abc", "1.5", "-1", ""]) {
      const answer = await callJson(
        team.base,
        team.tokens.anna,
        "GET",
        daily("acme/public", `days=${days}`),
      );
      expect(answer.status, days).toBe(400);
      expect(answer.body.error.code).toBe("invalid_input");
      expect(answer.body.error.data.field).toBe("days");
    }
    const extra = await callJson(
      team.base,
      team.tokens.anna,
      "GET",
      daily("acme/public", "weeks=2"),
    );
    expect(extra.status).toBe(400);
    expect(extra.body.error.code).toBe("unknown_field");
  });

  it("3 users × 3 repositories: a readable one answers its own days, the others are 404 exactly like a missing one", async () => {
    const day = Date.parse("2026-12-01T08:00:00.000Z");
    // Each repository gets a distinct count today, written straight into the index.
    const counts = { "acme/public": 3, "acme/private": 5, "acme/secret": 7 } as const;
    for (const [repo, n] of Object.entries(counts)) {
      const entries = Array.from({ length: n }, () => ({
        repo,
        id: IDS[repo as keyof typeof IDS],
      }));
      team.index.recordShown("vera", entries, day);
    }
    const readable: Record<string, string[]> = {
      anna: ["acme/public", "acme/private"],
      boris: ["acme/public"],
      vera: ["acme/public"],
    };
    const missing = await callJson(
      team.base,
      team.tokens.vera,
      "GET",
      daily("acme/none", "days=1"),
    );
    expect(missing.status).toBe(404);
    for (const user of ["anna", "boris", "vera"] as const) {
      for (const repo of Object.keys(counts)) {
        const answer = await callJson(team.base, team.tokens[user], "GET", daily(repo, "days=1"));
        if (readable[user]?.includes(repo)) {
          expect(answer.status, `${user} ${repo}`).toBe(200);
          expect(answer.body.days).toEqual([
            { day: "2026-12-01", shown: counts[repo as keyof typeof counts], read: 0 },
          ]);
        } else {
          expect(answer.status, `${user} ${repo}`).toBe(404);
          const body = JSON.stringify(answer.body);
          expect(body).toBe(JSON.stringify(missing.body).replace("acme/none", repo));
          expect(body).not.toMatch(/"shown"|"days"/);
        }
      }
    }
  });

  it("a removed repository's and a removed user's days are forgotten", async () => {
    const day = Date.parse("2026-12-01T09:00:00.000Z");
    team.index.recordShown("gleb", [{ repo: "acme/public", id: IDS["acme/public"] }], day);
    const before = team.index.usageDays("acme/public", "2026-12-01", "2026-12-01");
    team.index.forgetUserCounters("gleb");
    const after = team.index.usageDays("acme/public", "2026-12-01", "2026-12-01");
    expect((before[0]?.shown ?? 0) - (after[0]?.shown ?? 0)).toBe(1);
    team.index.recordShown("anna", [{ repo: "acme/gone", id: IDS["acme/public"] }], day);
    expect(team.index.usageDays("acme/gone", "2026-12-01", "2026-12-01")).toHaveLength(1);
    team.index.forgetHostedRepository("acme/gone");
    expect(team.index.usageDays("acme/gone", "2026-12-01", "2026-12-01")).toEqual([]);
  });

  it("community: 402 license_required, the same for a readable, a hidden and a missing repository", async () => {
    for (const repo of ["acme/public", "acme/secret", "acme/none"]) {
      const answer = await callJson(
        community.base,
        community.tokens.boris,
        "GET",
        daily(repo, "days=0"),
      );
      expect(answer.status, repo).toBe(402);
      expect(answer.body.error.code).toBe("license_required");
      expect(answer.body.error.data).toEqual({
        feature: "stats_daily",
        edition: "community",
        edition_needed: "pro",
      });
    }
  });

  it("the web view's session reads it as its token would (a GET needs no csrf)", async () => {
    const signIn = await fetch(`${team.base}/web/api/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: team.tokens.boris }),
    });
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const answer = await fetch(`${team.base}${daily("acme/public", "days=1")}`, {
      headers: { cookie },
    });
    expect(answer.status).toBe(200);
    const hidden = await fetch(`${team.base}${daily("acme/private", "days=1")}`, {
      headers: { cookie },
    });
    expect(hidden.status).toBe(404);
  });
});
