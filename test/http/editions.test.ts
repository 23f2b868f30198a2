/**
 * Editions by address over real HTTP (seed 004 "Интерфейс", last paragraphs): the same
 * server in Community (no licence), Pro and Max. A paid call is refused whole with 402
 * `license_required` — before any rights check, so the refusal says nothing else — and the
 * free calls answer in every edition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCOPES } from "../../src/core/access/rights.js";
import { EDITIONS, type Edition } from "../../src/core/editions/edition.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { startTeamFixture, type TeamFixture } from "./team-fixture.js";

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
          message: `setting a draft limit needs the max edition; this server runs the ${edition} edition`,
          data: { feature: "set_draft_limit", edition, edition_needed: "max" },
        },
      });
      const ru = await call(edition, "PUT", LIMIT, { body: { limit: 5 }, lang: "ru" });
      expect(ru.body.error?.message).toBe(
        `заведение и изменение предела черновиков — в редакции max; этот сервер работает в редакции ${edition}`,
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
