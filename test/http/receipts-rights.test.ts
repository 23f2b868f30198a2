/**
 * Load receipts on the team server (README "Load receipts"), 3 users × 3 repositories:
 * anna reads acme/public and acme/private, boris reads acme/public, vera reads acme/public
 * and writes acme/secret. Each recalls over `/mcp` with the real SDK client; then `GET
 * /api/v1/receipts` answers each only their own receipts with only readable hits, and `GET
 * …/knowledge/receipts` answers a repository's writers every user's receipts with only its
 * hits, a reader 403 and anyone else 404 exactly as for a missing repository. Nothing of a
 * repository the caller cannot read leaks: no id, no summary, not even a count. On both
 * engines of the index store: the server's SQLite index, and PostgreSQL (`[server]
 * database`; with `LORE_TEST_PG_URL`), where the filters run in its SQL.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "../../src/core/access/rights.js";
import { createToken } from "../../src/services/access/tokens.js";
import { indexStoreEngines } from "../helpers/index-store-engines.js";
import {
  callJson,
  IDS,
  MATRIX_WORD,
  startTeamFixture,
  type TeamFixture,
  writerToken,
} from "./team-fixture.js";

type Who = "anna" | "boris" | "vera";
const USERS: readonly Who[] = ["anna", "boris", "vera"];
const REPOS = ["acme/public", "acme/private", "acme/secret"] as const;
const READABLE: Record<Who, readonly string[]> = {
  anna: ["acme/public", "acme/private"],
  boris: ["acme/public"],
  vera: ["acme/public", "acme/secret"],
};

describe.each(indexStoreEngines("receipts"))(
  "load receipts on the team server ($name)",
  (engine) => {
    let team: TeamFixture;
    /** Tokens with knowledge:write (the repository route's scope) besides read. */
    const tokens = {} as Record<Who, string>;

    beforeAll(async () => {
      const indexStore = await engine.open();
      team = await startTeamFixture(indexStore === undefined ? {} : { indexStore });
      tokens.vera = await writerToken(team, "vera", "acme/secret");
      const scopes: Scope[] = ["knowledge:read", "knowledge:write", "repo:read"];
      for (const who of ["anna", "boris"] as const) {
        tokens[who] = (
          await createToken(team.store, { user: who, scopes, now: Date.now() })
        ).secret;
      }
      for (const who of USERS) {
        const client = new Client({ name: `agent-of-${who}`, version: "1" });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
            requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
          }),
        );
        try {
          const result = await client.callTool({
            name: "knowledge_recall",
            arguments: { query: MATRIX_WORD },
          });
          expect(result.isError).toBeFalsy();
        } finally {
          await client.close();
        }
      }
    }, 60_000);
    afterAll(async () => {
      await team?.close();
    });

    /**
     * The repositories the caller cannot read that an answer names (by name or entry id); a
     * refusal may echo the name the caller asked for (`asked`), nothing else.
     */
    const leaked = (body: unknown, who: Who, asked?: string): string[] => {
      const text = JSON.stringify(body);
      return REPOS.filter((repo) => !READABLE[who].includes(repo)).filter(
        (repo) => (repo !== asked && text.includes(repo)) || text.includes(IDS[repo]),
      );
    };

    describe("GET /api/v1/receipts", () => {
      it("answers each user only their own receipt, with the hits of the repositories they read", async () => {
        for (const who of USERS) {
          const { status, body } = await callJson(
            team.base,
            tokens[who],
            "GET",
            "/api/v1/receipts",
          );
          expect(status, who).toBe(200);
          expect(body.next_cursor).toBeNull();
          expect(body.items).toHaveLength(1);
          const [receipt] = body.items;
          expect(receipt).toMatchObject({
            user: who,
            client: `agent-of-${who}`,
            query: MATRIX_WORD,
            tool: null,
          });
          expect(receipt.hits.map((h: { repo: string }) => h.repo).sort()).toEqual(
            [...READABLE[who]].sort(),
          );
          for (const hit of receipt.hits) {
            expect(hit.id).toBe(IDS[hit.repo as keyof typeof IDS]);
            expect(hit.why).toContainEqual({ kind: "on_query", word: MATRIX_WORD });
            expect(hit.revision).toMatch(/^[0-9a-f]{40}$/);
          }
          expect(leaked(body, who), who).toEqual([]);
        }
        // On PostgreSQL the receipts are its own: none in the server's SQLite index.
        expect(team.index.receipts.count()).toBe(engine.name === "SQLite" ? USERS.length : 0);
      });

      it("after a right is taken away, the hit goes and so do the counts that included it", async () => {
        const anna = await team.store.getUser("anna");
        const repo = await team.store.getRepo("acme/private");
        await team.store.revoke({
          repoId: repo?.id ?? -1,
          subject: { kind: "user", id: anna?.id ?? -1 },
        });
        try {
          const { body } = await callJson(team.base, tokens.anna, "GET", "/api/v1/receipts");
          const [receipt] = body.items;
          expect(receipt.hits.map((h: { repo: string; rank: number }) => [h.repo, h.rank])).toEqual(
            [["acme/public", 1]],
          );
          expect(receipt.total).toBeNull();
          expect(receipt.offset).toBeNull();
          expect(JSON.stringify(body)).not.toContain(IDS["acme/private"]);
        } finally {
          await team.store.grant({
            repoId: repo?.id ?? -1,
            subject: { kind: "user", id: anna?.id ?? -1 },
            level: "read",
          });
        }
      });

      it("refuses bad input with the documented codes", async () => {
        const since = await callJson(team.base, tokens.anna, "GET", "/api/v1/receipts?since=soon");
        expect([since.status, since.body.error.code]).toEqual([400, "invalid_input"]);
        const limit = await callJson(team.base, tokens.anna, "GET", "/api/v1/receipts?limit=500");
        expect([limit.status, limit.body.error.code]).toEqual([400, "invalid_limit"]);
        const cursor = await callJson(team.base, tokens.anna, "GET", "/api/v1/receipts?cursor=xyz");
        expect([cursor.status, cursor.body.error.code]).toEqual([400, "invalid_cursor"]);
        const unknown = await callJson(team.base, tokens.anna, "GET", "/api/v1/receipts?user=vera");
        expect([unknown.status, unknown.body.error.code]).toEqual([400, "unknown_field"]);
      });
    });

    describe("GET /api/v1/repos/{owner}/{name}/knowledge/receipts", () => {
      const path = (repo: string) => `/api/v1/repos/${repo}/knowledge/receipts`;

      it("answers a writer every user's receipts that surfaced the repository, with only its hits", async () => {
        const { status, body } = await callJson(team.base, tokens.vera, "GET", path("acme/secret"));
        expect(status).toBe(200);
        // Only vera could read acme/secret, so only her recall surfaced it.
        expect(body.items.map((r: { user: string }) => r.user)).toEqual(["vera"]);
        const [receipt] = body.items;
        expect(receipt.hits).toEqual([
          expect.objectContaining({ repo: "acme/secret", id: IDS["acme/secret"], rank: 1 }),
        ]);
        expect([receipt.total, receipt.offset]).toEqual([null, null]);
        expect(JSON.stringify(body)).not.toContain(IDS["acme/public"]);
      });

      it("answers a reader 403 and anyone else 404 exactly as for a missing repository", async () => {
        const missing = await callJson(team.base, tokens.boris, "GET", path("acme/nothing"));
        expect(missing.status).toBe(404);
        for (const who of USERS) {
          for (const repo of REPOS) {
            const answer = await callJson(team.base, tokens[who], "GET", path(repo));
            const expected =
              who === "vera" && repo === "acme/secret"
                ? 200
                : READABLE[who].includes(repo)
                  ? 403
                  : 404;
            expect(answer.status, `${who} ${repo}`).toBe(expected);
            if (expected === 403) expect(answer.body.error.code).toBe("forbidden");
            if (expected === 404) {
              expect(answer.body.error.code).toBe("repo_not_found");
              expect(JSON.stringify(answer.body).replace(repo, "acme/nothing")).toBe(
                JSON.stringify(missing.body),
              );
            }
            if (expected !== 200) expect(JSON.stringify(answer.body)).not.toMatch(/hits|items/);
            expect(leaked(answer.body, who, repo), `${who} ${repo}`).toEqual([]);
          }
        }
      });
    });

    describe("knowledge_receipts over /mcp", () => {
      it("answers the token user's own receipts, filtered like GET /api/v1/receipts", async () => {
        for (const who of USERS) {
          const client = new Client({ name: `reader-${who}`, version: "1" });
          await client.connect(
            new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
              requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
            }),
          );
          try {
            const result = await client.callTool({ name: "knowledge_receipts", arguments: {} });
            expect(result.isError).toBeFalsy();
            const page = result.structuredContent as {
              items: { user: string; hits: { repo: string }[] }[];
            };
            expect(page.items.map((r) => r.user)).toEqual([who]);
            expect(page.items[0]?.hits.map((h) => h.repo).sort()).toEqual(
              [...READABLE[who]].sort(),
            );
            expect(leaked(page, who)).toEqual([]);
            const strict = await client.callTool({
              name: "knowledge_receipts",
              arguments: { user: "vera" },
            });
            expect(strict.isError).toBe(true);
          } finally {
            await client.close();
          }
        }
      });
    });
  },
);
