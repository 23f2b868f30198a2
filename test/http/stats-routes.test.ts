/**
 * The shown/read/stats routes over real HTTP on 127.0.0.1 (seed 004 "Интерфейс"): a `shown`
 * read back exactly at once, the 256 batch (256 served, 257 `batch_too_large`), the per-token
 * rate limit (429 with `Retry-After` equal to `data.retry_after`, nothing counted), the read
 * counter, strict bodies and queries, the thresholds echoed, a hidden repository answered as
 * a missing one — and every new refusal in English and Russian by `Accept-Language`, the
 * message exactly the refusal's own text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Edition, PAID_FEATURES, requireEdition } from "../../src/core/editions/edition.js";
import { type ErrorCode, LoreError } from "../../src/core/errors/lore-error.js";
import { createToken } from "../../src/services/access/tokens.js";
import { IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

const RATE = 3;
const PUBLIC = "acme/public";
const UNKNOWN = "0193ffff-0000-7000-8000-0000000000ff";

let pro: TeamFixture;
let community: TeamFixture;

beforeAll(async () => {
  pro = await startTeamFixture({ edition: "pro", shownRateLimit: RATE });
  community = await startTeamFixture();
}, 120_000);

afterAll(async () => {
  await pro?.close();
  await community?.close();
});

/** A new token of a user (its own rate window). */
async function tokenOf(fx: TeamFixture, user: "anna" | "boris" | "vera"): Promise<string> {
  const scopes = ["knowledge:read", "repo:read"] as const;
  return (await createToken(fx.store, { user, scopes: [...scopes], now: Date.now() })).secret;
}

interface Answer {
  status: number;
  headers: Headers;
  body: {
    error?: { code: string; message: string; data?: Record<string, unknown> };
  } & Record<string, unknown>;
}

/** One call over HTTP. */
async function call(
  fx: TeamFixture,
  token: string,
  method: "GET" | "POST",
  path: string,
  options: { body?: unknown; lang?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${fx.base}/api/v1/repos/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.lang === undefined ? {} : { "accept-language": options.lang }),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as never,
  };
}

/** The call in English (no header) and in Russian: the same status and code, each message its language's. */
async function inBothLanguages(
  run: (lang?: string) => Promise<Answer>,
  expected: { status: number; code: ErrorCode; text: { en: string; ru: string } },
): Promise<Answer> {
  const en = await run();
  const ru = await run("ru-RU,ru;q=0.9,en;q=0.5");
  for (const [answer, lang] of [
    [en, "en"],
    [ru, "ru"],
  ] as const) {
    expect(answer.status).toBe(expected.status);
    expect(answer.body.error?.code).toBe(expected.code);
    expect(answer.body.error?.message).toBe(expected.text[lang]);
  }
  expect(ru.body.error?.message).toMatch(/[а-я]/);
  return en;
}

function ids(count: number): string[] {
  return Array.from(
    { length: count },
    (_, i) => `0193eeee-0000-7000-8000-${i.toString(16).padStart(12, "0")}`,
  );
}

function paidRefusal(edition: Edition, feature: keyof typeof PAID_FEATURES): LoreError {
  try {
    requireEdition(edition, PAID_FEATURES[feature]);
  } catch (error) {
    if (error instanceof LoreError) return error;
  }
  throw new Error(`${feature} is not refused on ${edition}`);
}

describe("POST …/knowledge/shown", () => {
  it("counts each known id once, reports the unknown ones, and stats/me reads it back exactly at once", async () => {
    const token = await tokenOf(pro, "anna");
    const known = IDS[PUBLIC];
    const answer = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, {
      body: { ids: [known, UNKNOWN, known] },
    });
    expect(answer).toMatchObject({ status: 200, body: { counted: 1, unknown: [UNKNOWN] } });
    const me = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/me`);
    expect(me.status).toBe(200);
    expect(me.body.items).toEqual([
      expect.objectContaining({ id: known, shown: 1, read: 0, last_read_at: null }),
    ]);
  });

  it("takes a batch of exactly 256 ids and refuses 257 with batch_too_large, nothing counted", async () => {
    const token = await tokenOf(pro, "boris");
    const batch = [IDS[PUBLIC], ...ids(255)];
    const taken = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, {
      body: { ids: batch },
    });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ counted: 1 });
    expect(taken.body.unknown).toHaveLength(255);
    const refused = await inBothLanguages(
      (lang) =>
        call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, {
          body: { ids: [...batch, UNKNOWN] },
          ...(lang === undefined ? {} : { lang }),
        }),
      {
        status: 400,
        code: "batch_too_large",
        text: new LoreError("batch_too_large", { max: 256, count: 257 }).text,
      },
    );
    expect(refused.body.error?.data).toEqual({ max: 256, count: 257 });
    const me = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/me`);
    expect(me.body.items).toEqual([expect.objectContaining({ id: IDS[PUBLIC], shown: 1 })]);
  });

  it(`serves ${RATE} calls a minute per token, then 429 rate_limited with Retry-After, nothing counted; another token goes on`, async () => {
    const token = await tokenOf(pro, "vera");
    const body = { ids: [IDS[PUBLIC]] };
    for (let i = 0; i < RATE; i++) {
      expect((await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, { body })).status).toBe(
        200,
      );
    }
    const first = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, { body });
    expect(first.status).toBe(429);
    const retryAfter = first.body.error?.data?.retry_after;
    expect(retryAfter).toEqual(expect.any(Number));
    expect(Number(first.headers.get("retry-after"))).toBe(retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    for (const lang of ["en", "ru"] as const) {
      const answer = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, { body, lang });
      expect(answer.status).toBe(429);
      // The message names the seconds left, which may tick between two calls: its own data.
      const text = new LoreError("rate_limited", {
        route: "POST …/knowledge/shown",
        limit: RATE,
        retry_after: Number(answer.body.error?.data?.retry_after),
      }).text;
      expect(answer.body.error?.message).toBe(text[lang]);
    }
    const me = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/me`);
    expect(me.body.items).toEqual([expect.objectContaining({ shown: RATE })]);
    const other = await tokenOf(pro, "vera");
    expect((await call(pro, other, "POST", `${PUBLIC}/knowledge/shown`, { body })).status).toBe(
      200,
    );
  });

  it("refuses a body with another field (unknown_field) or ids that are not a list (invalid_input)", async () => {
    const token = await tokenOf(pro, "anna");
    const extra = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, {
      body: { ids: [], id: "x" },
    });
    expect(extra).toMatchObject({ status: 400, body: { error: { code: "unknown_field" } } });
    const notList = await call(pro, token, "POST", `${PUBLIC}/knowledge/shown`, {
      body: { ids: "x" },
    });
    expect(notList).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
  });
});

describe("POST …/knowledge/entries/{id}/read", () => {
  it("answers the caller's read count after each read", async () => {
    const token = await tokenOf(pro, "anna");
    const path = `acme/private/knowledge/entries/${IDS["acme/private"]}/read`;
    expect(await call(pro, token, "POST", path)).toMatchObject({
      status: 200,
      body: { id: IDS["acme/private"], read: 1 },
    });
    expect((await call(pro, token, "POST", path)).body).toEqual({
      id: IDS["acme/private"],
      read: 2,
    });
  });

  it("refuses an id the repository does not hold with entry_not_found, in English and Russian", async () => {
    const token = await tokenOf(pro, "anna");
    await inBothLanguages(
      (lang) =>
        call(pro, token, "POST", `${PUBLIC}/knowledge/entries/${UNKNOWN}/read`, {
          ...(lang === undefined ? {} : { lang }),
        }),
      {
        status: 404,
        code: "entry_not_found",
        text: new LoreError("entry_not_found", { id: UNKNOWN }).text,
      },
    );
  });

  it("answers a repository the caller may not read exactly as a missing one", async () => {
    const token = await tokenOf(pro, "vera");
    const hidden = await call(
      pro,
      token,
      "POST",
      `acme/private/knowledge/entries/${IDS["acme/private"]}/read`,
    );
    const missing = await call(
      pro,
      token,
      "POST",
      `acme/nothing/knowledge/entries/${IDS["acme/private"]}/read`,
    );
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.error?.code).toBe("repo_not_found");
    expect(hidden.body.error?.message.replace("acme/private", "X")).toBe(
      missing.body.error?.message.replace("acme/nothing", "X"),
    );
  });
});

describe("GET …/knowledge/stats/dead", () => {
  it("echoes the thresholds applied: the defaults 10 and 30, or the query's", async () => {
    const token = await tokenOf(pro, "anna");
    const byDefault = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/dead`);
    expect(byDefault).toMatchObject({ status: 200, body: { min_shown: 10, min_age_days: 30 } });
    const given = await call(
      pro,
      token,
      "GET",
      `${PUBLIC}/knowledge/stats/dead?min_shown=1&min_age_days=0`,
    );
    expect(given).toMatchObject({ status: 200, body: { min_shown: 1, min_age_days: 0 } });
  });

  it("refuses a threshold out of range or not a whole number (invalid_input) and another parameter (unknown_field)", async () => {
    const token = await tokenOf(pro, "anna");
    for (const query of ["min_shown=0", "min_shown=abc", "min_age_days=-1", "min_age_days=36501"]) {
      const answer = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/dead?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error?.code, query).toBe("invalid_input");
      expect(answer.body.error?.message, query).toContain(query.split("=")[0] as string);
      // The whole refusal is Lore's own: the parameter and its range, no schema wording.
      expect(answer.body.error?.data?.parameter, query).toBe(query.split("=")[0]);
      expect(answer.body.error?.message, query).not.toMatch(/Invalid|pattern/);
      const ru = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/dead?${query}`, {
        lang: "ru",
      });
      expect(ru.body.error?.message, query).toMatch(/^неверный ввод/);
    }
    const other = await call(pro, token, "GET", `${PUBLIC}/knowledge/stats/dead?min_show=3`);
    expect(other).toMatchObject({
      status: 400,
      body: { error: { code: "unknown_field", data: { field: "min_show", nearest: "min_shown" } } },
    });
  });
});

describe("the paid addresses on a Community server", () => {
  for (const [route, feature] of [
    ["team", "stats_team"],
    ["dead", "stats_dead"],
  ] as const) {
    it(`stats/${route} is 402 license_required in English and Russian, also on a hidden repository`, async () => {
      const token = await tokenOf(community, "vera");
      for (const repo of [PUBLIC, "acme/secret", "acme/nothing"]) {
        const answer = await inBothLanguages(
          (lang) =>
            call(community, token, "GET", `${repo}/knowledge/stats/${route}`, {
              ...(lang === undefined ? {} : { lang }),
            }),
          { status: 402, code: "license_required", text: paidRefusal("community", feature).text },
        );
        expect(answer.body.error?.data).toEqual({
          feature,
          edition: "community",
          edition_needed: "pro",
        });
      }
    });
    it(`stats/${route} with a malformed threshold is still 402 first: the edition before the query`, async () => {
      const token = await tokenOf(community, "vera");
      const answer = await call(
        community,
        token,
        "GET",
        `${PUBLIC}/knowledge/stats/${route}${route === "dead" ? "?min_shown=abc" : ""}`,
      );
      expect(answer.status).toBe(402);
      expect(answer.body.error?.code).toBe("license_required");
    });
  }
});
