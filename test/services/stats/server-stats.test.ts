/**
 * The team server's counters and stats through `ServerApi.stats` and the `/mcp` port on a
 * real team fixture (real bare repositories filled by `git push`, a real SQLite index and
 * server store): the rights of three users on three repositories (nothing of the hidden
 * one, not a count), the edition checked first on the paid reports, the 256 batch, unknown
 * ids reported back, the per-token rate limit with `retry_after`, exact reads right after a
 * `shown`, and recall/open over `/mcp` counting durably unless `count_shown: false`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "../../../src/core/access/rights.js";
import type { Edition } from "../../../src/core/editions/edition.js";
import { isLoreError } from "../../../src/core/errors/lore-error.js";
import { RATE_WINDOW_MS } from "../../../src/core/stats/usage-stats.js";
import type { StatsApi } from "../../../src/http/stats-api.js";
import { indexHostedRepo } from "../../../src/main/index-hosted-repo.js";
import { createStatsApi } from "../../../src/main/server-stats.js";
import { bareRepoPath } from "../../../src/services/access/hosted-repos.js";
import { createToken } from "../../../src/services/access/tokens.js";
import { storeDraft } from "../../helpers/store-drafts.js";
import {
  entryFile,
  IDS,
  MATRIX_WORD,
  startTeamFixture,
  type TeamFixture,
} from "../../http/team-fixture.js";

type Who = "anna" | "boris" | "vera";
const USERS: Who[] = ["anna", "boris", "vera"];
const REPOS = Object.keys(IDS) as (keyof typeof IDS)[];
/** What each user may read, by the fixture's grants. */
const READABLE: Record<Who, string[]> = {
  anna: ["acme/private", "acme/public"],
  boris: ["acme/public"],
  vera: ["acme/public"],
};
const EXTRA_ID = "0193a000-0000-7000-8000-0000000000e1";
// A fixed window start, 15 s into the minute: `retry_after` is then exactly 45.
const T0 = Math.floor(Date.UTC(2026, 0, 1) / RATE_WINDOW_MS) * RATE_WINDOW_MS + 15_000;

let team: TeamFixture;
let clock = T0;
const principals = {} as Record<Who, Principal>;

beforeAll(async () => {
  team = await startTeamFixture({
    edition: "pro",
    shownRateLimit: 0,
    now: () => clock,
    indexNow: () => clock,
    extra: {
      "acme/public": {
        ".gitriver/knowledge/extra.md": entryFile(EXTRA_ID, ["other"], "Never shown one"),
      },
    },
  });
  for (const who of USERS) principals[who] = await team.api.authenticate(team.tokens[who]);
});
afterAll(async () => {
  await team?.close();
});

/** A StatsApi over the fixture's store and index with another edition or rate limit. */
function statsWith(options: { edition?: Edition; shownRateLimit?: number }): StatsApi {
  const freshen = indexHostedRepo(team.index);
  return createStatsApi({
    store: team.store,
    index: team.index,
    freshen: (repo) =>
      freshen({
        fullName: repo.fullName,
        dir: bareRepoPath(team.data, repo.fullName),
        defaultBranch: repo.defaultBranch,
      }),
    edition: options.edition ?? "pro",
    shownRateLimit: options.shownRateLimit ?? 0,
    now: () => clock,
  });
}

/** The refusal's code, data and message, or `undefined` when the call succeeded. */
async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
  } catch (error) {
    if (isLoreError(error)) return { code: error.code, data: error.data, message: error.message };
    throw error;
  }
  return undefined;
}

describe("rights: three users, three repositories", () => {
  it("each method serves the readable repositories and answers a hidden one exactly as a missing one", async () => {
    const stats = team.api.stats;
    for (const who of USERS) {
      const p = principals[who];
      for (const repo of REPOS) {
        const calls = {
          shown: () => stats.shown(p, repo, [IDS[repo]]),
          read: () => stats.read(p, repo, IDS[repo]),
          me: () => stats.me(p, repo),
          team: () => stats.team(p, repo),
          dead: () => stats.dead(p, repo, {}),
        };
        for (const [name, call] of Object.entries(calls)) {
          const refused = await refusal(call);
          if (READABLE[who].includes(repo)) {
            expect([who, repo, name, refused]).toEqual([who, repo, name, undefined]);
          } else {
            expect([who, repo, name, refused?.code]).toEqual([who, repo, name, "repo_not_found"]);
            // The same words as for a repository that does not exist.
            const missing = await refusal(() => stats.me(p, "acme/nope"));
            expect(refused?.message).toBe(missing?.message.replace("acme/nope", repo));
          }
        }
      }
    }
  });

  it("nothing of the hidden repository is counted or shown: not an entry, not a count", async () => {
    const stats = team.api.stats;
    // Nobody could mark the secret entry: no counter row exists for it.
    for (const who of USERS)
      expect(team.index.counter(who, "acme/secret", IDS["acme/secret"])).toBeUndefined();
    // The private entry was counted for anna only (boris and vera were refused).
    expect(team.index.counter("anna", "acme/private", IDS["acme/private"])).toMatchObject({
      shown: 1,
      read: 1,
    });
    expect(team.index.counter("boris", "acme/private", IDS["acme/private"])).toBeUndefined();
    for (const who of USERS) {
      const me = await stats.me(principals[who], "acme/public");
      const teamRows = await stats.team(principals[who], "acme/public");
      const dead = await stats.dead(principals[who], "acme/public", { minAgeDays: 0 });
      for (const answer of [me, teamRows, dead]) {
        const text = JSON.stringify(answer);
        expect(text).not.toContain(IDS["acme/secret"]);
        expect(text).not.toContain(IDS["acme/private"]);
      }
      // stats/me is the caller's own: one showing and one read each, no team totals.
      expect(me.items.map((row) => [row.id, row.shown, row.read])).toEqual([
        [IDS["acme/public"], 1, 1],
      ]);
    }
    // stats/team: every entry, the team's totals, zeros for the one never shown.
    const teamRows = await stats.team(principals.boris, "acme/public");
    expect(teamRows.items.map((row) => [row.id, row.shown, row.read])).toEqual([
      [IDS["acme/public"], 3, 3],
      [EXTRA_ID, 0, 0],
    ]);
  });
});

describe("the edition, checked first", () => {
  it("community: team and dead are license_required whole, even on a hidden or missing repository; me is served", async () => {
    const community = statsWith({ edition: "community" });
    for (const repo of ["acme/public", "acme/secret", "acme/nope"]) {
      for (const call of [
        () => community.team(principals.boris, repo),
        () => community.dead(principals.boris, repo, {}),
        () => community.dead(principals.boris, repo, { minShown: 0 }),
      ]) {
        const refused = await refusal(call);
        expect(refused?.code).toBe("license_required");
        expect(refused?.data).toMatchObject({ edition: "community", edition_needed: "pro" });
      }
    }
    expect((await community.me(principals.boris, "acme/public")).items).toHaveLength(1);
    const max = statsWith({ edition: "max" });
    expect((await max.team(principals.boris, "acme/public")).items).toHaveLength(2);
  });
});

describe("shown", () => {
  it("counts each distinct known id once, reports unknown ones, and reads are exact at once", async () => {
    const stats = team.api.stats;
    const before = team.index.counter("vera", "acme/public", EXTRA_ID)?.shown ?? 0;
    const answer = await stats.shown(principals.vera, "acme/public", [
      EXTRA_ID,
      EXTRA_ID.toUpperCase(),
      "0193a000-0000-7000-8000-00000000ffff",
      IDS["acme/private"],
      "not-an-id",
    ]);
    expect(answer).toEqual({
      counted: 1,
      unknown: ["0193a000-0000-7000-8000-00000000ffff", IDS["acme/private"], "not-an-id"],
    });
    const me = await stats.me(principals.vera, "acme/public");
    expect(me.items.find((row) => row.id === EXTRA_ID)?.shown).toBe(before + 1);
  });

  it("takes 256 ids and refuses 257 with batch_too_large, counting nothing", async () => {
    const stats = team.api.stats;
    const ids = Array.from({ length: 256 }, () => EXTRA_ID);
    expect(await stats.shown(principals.vera, "acme/public", ids)).toEqual({
      counted: 1,
      unknown: [],
    });
    const shownBefore = team.index.counter("vera", "acme/public", EXTRA_ID)?.shown;
    const refused = await refusal(() =>
      stats.shown(principals.vera, "acme/public", [...ids, EXTRA_ID]),
    );
    expect(refused).toMatchObject({ code: "batch_too_large", data: { max: 256, count: 257 } });
    expect(team.index.counter("vera", "acme/public", EXTRA_ID)?.shown).toBe(shownBefore);
  });

  it("allows the limit's calls per token per minute, then rate_limited with retry_after; another token is not limited", async () => {
    const limited = statsWith({ shownRateLimit: 3 });
    clock = T0;
    const shownBefore = team.index.counter("boris", "acme/public", EXTRA_ID)?.shown ?? 0;
    for (let i = 0; i < 3; i++) await limited.shown(principals.boris, "acme/public", [EXTRA_ID]);
    const refused = await refusal(() => limited.shown(principals.boris, "acme/public", [EXTRA_ID]));
    expect(refused).toMatchObject({ code: "rate_limited", data: { retry_after: 45, limit: 3 } });
    expect(team.index.counter("boris", "acme/public", EXTRA_ID)?.shown).toBe(shownBefore + 3);
    // The same user with another token has calls of its own.
    const other = await createToken(team.store, {
      user: "boris",
      scopes: ["knowledge:read"],
      now: Date.now(),
    });
    const second = await team.api.authenticate(other.secret);
    expect(await limited.shown(second, "acme/public", [EXTRA_ID])).toEqual({
      counted: 1,
      unknown: [],
    });
    // The next window allows calls again.
    clock = T0 + 45_000;
    expect(await limited.shown(principals.boris, "acme/public", [EXTRA_ID])).toMatchObject({
      counted: 1,
    });
    clock = T0;
  });
});

describe("read", () => {
  it("counts a read and answers the caller's count; an id of no entry of the repository is entry_not_found", async () => {
    const stats = team.api.stats;
    const first = await stats.read(principals.vera, "acme/public", EXTRA_ID.toUpperCase());
    const second = await stats.read(principals.vera, "acme/public", EXTRA_ID);
    expect(second).toEqual({ id: EXTRA_ID, read: first.read + 1 });
    for (const id of [IDS["acme/private"], "0193a000-0000-7000-8000-00000000ffff"]) {
      expect((await refusal(() => stats.read(principals.anna, "acme/public", id)))?.code).toBe(
        "entry_not_found",
      );
    }
  });
});

describe("recall and open over /mcp", () => {
  it("count durably for the token's user; count_shown: false counts nothing", async () => {
    const port = team.api.mcpPort(principals.vera);
    const before = team.index.counter("vera", "acme/public", IDS["acme/public"]) ?? {
      shown: 0,
      read: 0,
    };
    const hits = await port.recall({ query: MATRIX_WORD });
    expect(hits.hits.map((hit) => hit.id)).toEqual([IDS["acme/public"]]);
    // Stored at once (no write-behind): the counter row has it before any flush.
    expect(team.index.counter("vera", "acme/public", IDS["acme/public"])?.shown).toBe(
      before.shown + 1,
    );
    await port.recall({ query: MATRIX_WORD, count_shown: false });
    expect(team.index.counter("vera", "acme/public", IDS["acme/public"])?.shown).toBe(
      before.shown + 1,
    );
    await port.open(IDS["acme/public"]);
    expect(team.index.counter("vera", "acme/public", IDS["acme/public"])?.read).toBe(
      before.read + 1,
    );
    const me = await team.api.stats.me(principals.vera, "acme/public");
    expect(me.items.find((row) => row.id === IDS["acme/public"])).toMatchObject({
      shown: before.shown + 1,
      read: before.read + 1,
      last_shown_at: new Date(T0).toISOString(),
    });
  });

  it("over real HTTP with the MCP SDK client: knowledge_recall and knowledge_open are stored before the answer", async () => {
    const before = team.index.counter("boris", "acme/public", IDS["acme/public"]) ?? {
      shown: 0,
      read: 0,
    };
    const client = new Client({ name: "stats-boris", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${team.tokens.boris}` } },
      }),
    );
    try {
      const result = await client.callTool({
        name: "knowledge_recall",
        arguments: { query: MATRIX_WORD },
      });
      expect(result.isError).toBeFalsy();
      // `counter` reads the stored rows only: a queued count would not be there yet.
      expect(team.index.counter("boris", "acme/public", IDS["acme/public"])?.shown).toBe(
        before.shown + 1,
      );
      const opened = await client.callTool({
        name: "knowledge_open",
        arguments: { id: IDS["acme/public"] },
      });
      expect(opened.isError).toBeFalsy();
      expect(team.index.counter("boris", "acme/public", IDS["acme/public"])?.read).toBe(
        before.read + 1,
      );
    } finally {
      await client.close();
    }
  });
});

describe("an id copied from a hidden repository", () => {
  it("brings none of the hidden entry's counts or age: counters are kept per repository", async () => {
    const secret = IDS["acme/secret"];
    // The hidden entry is read and shown by someone with rights (here: written directly).
    team.index.recordShown("zed", [{ repo: "acme/secret", id: secret }], T0 - 5_000);
    team.index.recordRead("zed", { repo: "acme/secret", id: secret }, T0 - 4_000);
    // Someone who can write acme/public pushes a file carrying the same id.
    clock += 60_000;
    await team.push("acme/public", {
      ".gitriver/knowledge/copy.md": entryFile(secret, ["copy"], "A copy of an id"),
    });
    const stats = team.api.stats;
    const row = (await stats.team(principals.vera, "acme/public")).items.find(
      (item) => item.id === secret,
    );
    expect(row).toMatchObject({ shown: 0, read: 0, last_shown_at: null, last_read_at: null });
    const dead = (await stats.dead(principals.vera, "acme/public", { minAgeDays: 0 })).items.find(
      (item) => item.id === secret,
    );
    expect(dead?.first_seen_at).toBe(new Date(clock).toISOString());
    // Counting the copy counts the copy only.
    await stats.shown(principals.vera, "acme/public", [secret]);
    expect(team.index.counter("zed", "acme/secret", secret)).toMatchObject({ shown: 1, read: 1 });
    expect(team.index.counter("vera", "acme/secret", secret)).toBeUndefined();
    expect(team.index.counter("vera", "acme/public", secret)).toMatchObject({ shown: 1 });
  });
});

describe("a hosted repository removed and made again", () => {
  it("starts empty: no entries, drafts, counters or ages of the old one", async () => {
    const admin = team.api.admin({
      userId: 0,
      user: "root",
      siteAdmin: true,
      scopes: ["admin", "knowledge:read", "knowledge:write", "repo:read", "repo:write"],
      tokenId: 0,
    });
    const repo = "acme/private";
    const draft = storeDraft(team.index, { repo, branch: "feature/x" });
    team.index.recordShown("anna", [{ repo, id: IDS[repo] }], clock);
    expect(team.index.usage(repo, { limit: 100 }).length).toBeGreaterThan(1);
    await admin.removeRepo(repo);
    await admin.createRepo({ fullName: repo, public: false });
    expect(team.index.usage(repo, { limit: 100 })).toEqual([]);
    expect(team.index.drafts.get(repo, draft.id)).toBeUndefined();
    expect(team.index.counter("anna", repo, IDS[repo])).toBeUndefined();
    expect(team.index.repositoryRecords().map((r) => r.repo)).not.toContain(repo);
  });

  it("a user removed and made again under the name starts with no counters", async () => {
    const admin = team.api.admin({
      userId: 0,
      user: "root",
      siteAdmin: true,
      scopes: ["admin"],
      tokenId: 0,
    });
    team.index.recordShown("boris", [{ repo: "acme/public", id: IDS["acme/public"] }], clock);
    expect(team.index.counter("boris", "acme/public", IDS["acme/public"])).toBeDefined();
    await admin.removeUser("boris");
    await admin.addUser({ name: "boris", siteAdmin: false });
    expect(team.index.counter("boris", "acme/public", IDS["acme/public"])).toBeUndefined();
  });
});
