/**
 * Editions by address over real HTTP (seed 004 "Интерфейс", last paragraphs): the same
 * server in Community (no licence), Pro and Max. A paid call is refused whole with 402
 * `license_required` — before any rights check, so the refusal says nothing else — and the
 * free calls answer in every edition. Users of the fixture: anna reads acme/public and
 * acme/private, boris acme/public only; acme/secret none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/core/access/rights.js";
import { EDITIONS, type Edition } from "../../src/core/editions/edition.js";
import { deadAnswerSchema, usageAnswerSchema } from "../../src/core/stats/usage-stats-schema.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

interface Served {
  fixture: TeamFixture;
  /** The site admin's token. */
  admin: string;
}

const served = new Map<Edition, Served>();

beforeAll(async () => {
  for (const edition of EDITIONS) {
    const fixture = await startTeamFixture({ edition });
    await addUser(fixture.store, { name: "root", siteAdmin: true, now: Date.now() });
    const admin = (
      await createToken(fixture.store, { user: "root", scopes: SCOPES, now: Date.now() })
    ).secret;
    served.set(edition, { fixture, admin });
  }
});

afterAll(async () => {
  for (const { fixture } of served.values()) await fixture.close();
});

interface Answer {
  status: number;
  body: Record<string, unknown> & {
    error?: { code: string; message: string; data?: Record<string, unknown> };
  };
}

/** One call on the server of `edition`. */
async function call(
  edition: Edition,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; lang?: string } = {},
): Promise<Answer> {
  const server = served.get(edition) as Served;
  const response = await fetch(`${server.fixture.base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? server.admin}`,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
      ...(options.lang === undefined ? {} : { "accept-language": options.lang }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
}

const LIMIT = "/api/v1/admin/knowledge/limits/users/anna";

describe("PUT of a draft limit is the Max edition's", () => {
  it.each(["community", "pro"] as const)(
    "%s: 402 license_required, nothing written",
    async (edition) => {
      const answer = await call(edition, "PUT", LIMIT, { body: { limit: 5 } });
      expect(answer.status).toBe(402);
      expect(answer.body).toEqual({
        error: {
          code: "license_required",
          message: `setting a draft limit needs the max edition; Lore runs the ${edition} edition here (its licence: [server] license)`,
          data: { feature: "set_draft_limit", edition, edition_needed: "max" },
        },
      });
      const ru = await call(edition, "PUT", LIMIT, { body: { limit: 5 }, lang: "ru" });
      expect(ru.body.error?.message).toBe(
        `заведение и изменение предела черновиков — в редакции max; здесь Lore работает в редакции ${edition} (лицензия: [server] license)`,
      );
      // Nothing was set: the default still applies.
      expect((await call(edition, "GET", LIMIT)).body.error?.code).toBe("limit_not_found");
    },
  );

  it("max: 200 with the limit, read back", async () => {
    const answer = await call("max", "PUT", LIMIT, { body: { limit: 5 } });
    expect(answer).toEqual({ status: 200, body: { kind: "user", name: "anna", limit: 5 } });
    expect((await call("max", "GET", LIMIT)).body).toEqual({
      kind: "user",
      name: "anna",
      limit: 5,
    });
    expect((await call("max", "DELETE", LIMIT)).status).toBe(204);
  });

  it("the edition is checked before the rights: a user who is not a site admin, an unknown user", async () => {
    const { tokens } = (served.get("community") as Served).fixture;
    const notAdmin = await call("community", "PUT", LIMIT, {
      token: tokens.anna,
      body: { limit: 5 },
    });
    expect(notAdmin.status).toBe(402);
    expect(notAdmin.body.error?.code).toBe("license_required");
    const unknown = await call("pro", "PUT", "/api/v1/admin/knowledge/limits/users/nobody", {
      body: { limit: 5 },
    });
    expect(unknown.body.error?.code).toBe("license_required");
    // On Max the rights apply as before.
    const maxTokens = (served.get("max") as Served).fixture.tokens;
    const forbidden = await call("max", "PUT", LIMIT, {
      token: maxTokens.anna,
      body: { limit: 5 },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error?.code).toBe("forbidden");
  });

  it.each(EDITIONS)(
    "%s: GET and DELETE of a limit answer (a limit set before)",
    async (edition) => {
      const { fixture } = served.get(edition) as Served;
      const boris = await fixture.store.getUser("boris");
      await fixture.store.setDraftLimit({ kind: "user", id: boris?.id ?? -1 }, 7);
      const path = "/api/v1/admin/knowledge/limits/users/boris";
      expect(await call(edition, "GET", path)).toEqual({
        status: 200,
        body: { kind: "user", name: "boris", limit: 7 },
      });
      expect((await call(edition, "DELETE", path)).status).toBe(204);
      const gone = await call(edition, "GET", path);
      expect(gone.status).toBe(404);
      expect(gone.body.error?.code).toBe("limit_not_found");
    },
  );

  it("the OpenAPI document lists 402 on the PUT only", async () => {
    const doc = (await call("community", "GET", "/api/v1/openapi.json")).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const limits = doc.paths["/api/v1/admin/knowledge/limits/{kind}/{id}"];
    expect(Object.keys(limits?.put?.responses ?? {})).toContain("402");
    expect(Object.keys(limits?.get?.responses ?? {})).not.toContain("402");
    expect(Object.keys(limits?.delete?.responses ?? {})).not.toContain("402");
  });
});

const PAID = [
  ["team", "stats_team", "the team's stats need", "сведение по команде"],
  ["dead", "stats_dead", "the dead-memory report needs", "разбор мёртвой памяти"],
  ["daily", "stats_daily", "the daily usage report needs", "использование по дням"],
] as const;

const stats = (repo: string, kind: string) => `/api/v1/repos/${repo}/knowledge/stats/${kind}`;

describe("stats/team and stats/dead are the Pro edition's", () => {
  it.each(PAID)(
    "community: stats/%s is 402 license_required whole, the same for a readable, a hidden and a missing repository",
    async (kind, feature, en, ru) => {
      const { tokens } = (served.get("community") as Served).fixture;
      const expected = {
        status: 402,
        body: {
          error: {
            code: "license_required",
            message: `${en} the pro edition; Lore runs the community edition here (its licence: [server] license)`,
            data: { feature, edition: "community", edition_needed: "pro" },
          },
        },
      };
      for (const repo of ["acme/public", "acme/private", "acme/secret", "acme/none"]) {
        expect(await call("community", "GET", stats(repo, kind), { token: tokens.anna })).toEqual(
          expected,
        );
        // boris cannot read acme/private: still the same 402, nothing tells it exists.
        expect(await call("community", "GET", stats(repo, kind), { token: tokens.boris })).toEqual(
          expected,
        );
      }
      const inRussian = await call("community", "GET", stats("acme/public", kind), {
        token: tokens.anna,
        lang: "ru",
      });
      expect(inRussian.body.error?.message).toBe(
        `${ru} — в редакции pro; здесь Lore работает в редакции community (лицензия: [server] license)`,
      );
      // Thresholds on dead do not change it: the edition comes first.
      const withQuery = await call(
        "community",
        "GET",
        `${stats("acme/secret", kind)}${kind === "dead" ? "?min_shown=1&min_age_days=0" : ""}`,
        { token: tokens.boris },
      );
      expect(withQuery).toEqual(expected);
    },
  );

  it.each(["pro", "max"] as const)(
    "%s: stats/team and stats/dead are served, with the rights: hidden and missing are 404",
    async (edition) => {
      const { tokens } = (served.get(edition) as Served).fixture;
      const team = await call(edition, "GET", stats("acme/public", "team"), { token: tokens.anna });
      expect(team.status).toBe(200);
      const rows = usageAnswerSchema.parse(team.body).items;
      expect(rows.map((r) => r.id)).toContain(IDS["acme/public"]);
      expect(rows.every((r) => r.id !== IDS["acme/private"] && r.id !== IDS["acme/secret"])).toBe(
        true,
      );
      const dead = await call(edition, "GET", stats("acme/private", "dead"), {
        token: tokens.anna,
      });
      expect(dead.status).toBe(200);
      const report = deadAnswerSchema.parse(dead.body);
      expect({ min_shown: report.min_shown, min_age_days: report.min_age_days }).toEqual({
        min_shown: 10,
        min_age_days: 30,
      });
      for (const [kind] of PAID) {
        for (const [token, repo] of [
          [tokens.boris, "acme/private"],
          [tokens.anna, "acme/secret"],
          [tokens.anna, "acme/none"],
        ] as const) {
          const hidden = await call(edition, "GET", stats(repo, kind), { token });
          expect(hidden.status, `${kind} ${repo}`).toBe(404);
          expect(hidden.body.error?.code).toBe("repo_not_found");
          expect(hidden.body.error?.message).toBe(`no repository ${repo}`);
        }
      }
    },
  );

  it.each(EDITIONS)(
    "%s: stats/me is served and holds only the caller's own counters, never the team's totals or ailments",
    async (edition) => {
      const { tokens } = (served.get(edition) as Served).fixture;
      const id = IDS["acme/public"];
      const shown = "/api/v1/repos/acme/public/knowledge/shown";
      for (let i = 0; i < 3; i++) {
        const answer = await call(edition, "POST", shown, {
          token: tokens.boris,
          body: { ids: [id] },
        });
        expect(answer).toEqual({ status: 200, body: { counted: 1, unknown: [] } });
      }
      const before = await call(edition, "GET", stats("acme/public", "me"), { token: tokens.anna });
      expect(before).toEqual({ status: 200, body: { items: [] } });
      await call(edition, "POST", shown, { token: tokens.anna, body: { ids: [id] } });
      const mine = await call(edition, "GET", stats("acme/public", "me"), { token: tokens.anna });
      expect(mine.status).toBe(200);
      const items = usageAnswerSchema.parse(mine.body).items;
      expect(items.map((r) => [r.id, r.shown, r.read])).toEqual([[id, 1, 0]]);
      for (const row of items) {
        expect(Object.keys(row).sort()).toEqual(
          ["id", "last_read_at", "last_shown_at", "path", "read", "shown", "summary"].sort(),
        );
      }
      if (edition !== "community") {
        const team = await call(edition, "GET", stats("acme/public", "team"), {
          token: tokens.anna,
        });
        const row = usageAnswerSchema.parse(team.body).items.find((r) => r.id === id);
        expect([row?.shown, row?.read]).toEqual([4, 0]);
      }
    },
  );
});
