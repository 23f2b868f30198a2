/**
 * Rights (seed 004 "Интерфейс"; the team server's rights tests): three users, three
 * repositories — acme/public (public), acme/private (readable by anna only), acme/secret
 * (readable by none of them) — for every read endpoint and the MCP tools over real HTTP:
 * what each user gets, and that the third never shows: no entry, no count, a 404 exactly
 * as for a missing repository. The drafts of each repository follow the same rule.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRAFT_LIMIT_DEFAULT } from "../../src/core/drafts/draft.js";
import { writeDraft } from "../../src/services/drafts/write-draft.js";
import { IDS, MATRIX_WORD, startTeamFixture, type TeamFixture } from "./team-fixture.js";

let team: TeamFixture;
beforeAll(async () => {
  team = await startTeamFixture();
});
afterAll(async () => {
  await team?.close();
});

type Who = "anna" | "boris" | "vera";
const USERS: Who[] = ["anna", "boris", "vera"];

async function get(who: Who, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${team.base}${path}`, {
    headers: { authorization: `Bearer ${team.tokens[who]}` },
  });
  return { status: response.status, body: await response.text() };
}

/** What each user may read, by the fixture's grants. */
const READABLE: Record<Who, string[]> = {
  anna: ["acme/private", "acme/public"],
  boris: ["acme/public"],
  vera: ["acme/public"],
};

describe("GET /api/v1/repos", () => {
  it("lists only what each user can read, with the permission", async () => {
    for (const who of USERS) {
      const answer = await get(who, "/api/v1/repos");
      expect(answer.status).toBe(200);
      const repos = JSON.parse(answer.body) as { full_name: string; permission: string }[];
      expect([who, repos]).toEqual([
        who,
        READABLE[who].map((full_name) => ({
          full_name,
          public: full_name === "acme/public",
          default_branch: "main",
          permission: "read",
        })),
      ]);
      expect(answer.body).not.toContain("secret");
    }
  });
});

describe("GET /api/v1/user", () => {
  it("names the token's user, not a site admin, with the token's scopes", async () => {
    for (const who of USERS) {
      const answer = await get(who, "/api/v1/user");
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        name: who,
        site_admin: false,
        scopes: ["knowledge:read", "repo:read"],
      });
    }
  });
});

describe("GET /api/v1/repos/{owner}/{name}/knowledge", () => {
  it("answers the readable repositories' records and 404 repo_not_found for the others, exactly as for a missing one", async () => {
    const missing = await get("vera", "/api/v1/repos/acme/nothing-here/knowledge");
    expect(missing.status).toBe(404);
    for (const who of USERS) {
      for (const fullName of Object.keys(IDS)) {
        const answer = await get(who, `/api/v1/repos/${fullName}/knowledge`);
        if (READABLE[who].includes(fullName)) {
          expect([who, fullName, answer.status]).toEqual([who, fullName, 200]);
          const body = JSON.parse(answer.body) as { items: { id: string }[]; partial?: string };
          expect(body.items.map((item) => item.id)).toEqual([IDS[fullName as keyof typeof IDS]]);
          expect(body).not.toHaveProperty("partial");
        } else {
          expect([who, fullName, answer.status]).toEqual([who, fullName, 404]);
          // The same answer as for a repository that does not exist, but for its name.
          expect(answer.body).toBe(missing.body.replace("acme/nothing-here", fullName));
          expect(JSON.parse(answer.body)).toEqual({
            error: { code: "repo_not_found", message: `no repository ${fullName}` },
          });
        }
      }
    }
  });

  it("lists every field of a record and never its body", async () => {
    const answer = await get("anna", "/api/v1/repos/acme/private/knowledge");
    const body = JSON.parse(answer.body) as { items: Record<string, unknown>[] };
    const item = body.items[0] as Record<string, unknown>;
    expect(Object.keys(item).sort()).toEqual(
      [
        "blob_sha",
        "contract",
        "diagnostics",
        "id",
        "links",
        "origin",
        "path",
        "reachable",
        "summary",
        "unmet_mechanisms",
      ].sort(),
    );
    expect(item).toMatchObject({
      id: IDS["acme/private"],
      path: ".gitriver/knowledge/entry.md",
      origin: "human",
      summary: "Entry of acme/private",
      reachable: true,
      unmet_mechanisms: [],
      diagnostics: [],
      contract: [{ mechanism: "on_query", params: { words: [MATRIX_WORD] } }],
    });
    expect(item.blob_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(answer.body).not.toContain("Body of");
  });
});

describe("GET /api/v1/repos/{owner}/{name}/raw/{path}", () => {
  it("answers a readable repository's bytes and 404 repo_not_found for the others", async () => {
    for (const who of USERS) {
      for (const fullName of Object.keys(IDS)) {
        const answer = await get(who, `/api/v1/repos/${fullName}/raw/docs/readme.txt`);
        if (READABLE[who].includes(fullName)) {
          expect([who, fullName, answer.status, answer.body]).toEqual([
            who,
            fullName,
            200,
            `readme of ${fullName}\n`,
          ]);
        } else {
          expect([who, fullName, answer.status, JSON.parse(answer.body)]).toEqual([
            who,
            fullName,
            404,
            { error: { code: "repo_not_found", message: `no repository ${fullName}` } },
          ]);
        }
      }
    }
  });

  it("reads at a ref, and a missing file or ref is 404 path_not_found", async () => {
    const atMain = await get("boris", "/api/v1/repos/acme/public/raw/docs/readme.txt?ref=main");
    expect(atMain.body).toBe("readme of acme/public\n");
    const noFile = await get("boris", "/api/v1/repos/acme/public/raw/docs/none.txt");
    expect([noFile.status, JSON.parse(noFile.body).error.code]).toEqual([404, "path_not_found"]);
    const noRef = await get("boris", "/api/v1/repos/acme/public/raw/docs/readme.txt?ref=nope");
    expect([noRef.status, JSON.parse(noRef.body).error.code]).toEqual([404, "path_not_found"]);
    const badRef = await get("boris", "/api/v1/repos/acme/public/raw/docs/readme.txt?ref=-x");
    expect([badRef.status, JSON.parse(badRef.body).error.code]).toEqual([400, "invalid_input"]);
  });
});

describe("MCP recall and open over /mcp with a Bearer token", () => {
  async function mcpClient(who: Who): Promise<Client> {
    const client = new Client({ name: `matrix-${who}`, version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${team.tokens[who]}` } },
      }),
    );
    return client;
  }

  it("recall lists only the readable repositories' entries, and counts only them", async () => {
    for (const who of USERS) {
      const client = await mcpClient(who);
      try {
        const result = await client.callTool({
          name: "knowledge_recall",
          arguments: { query: MATRIX_WORD },
        });
        const answer = result.structuredContent as {
          hits: { id: string; repo: string }[];
          total: number;
        };
        expect([who, answer.hits.map((hit) => hit.repo).sort()]).toEqual([who, READABLE[who]]);
        expect([who, answer.total]).toEqual([who, READABLE[who].length]);
        expect(JSON.stringify(result)).not.toContain(IDS["acme/secret"]);
      } finally {
        await client.close();
      }
    }
  });

  it("open returns readable entries and entry_not_found for a hidden one, as for a missing id", async () => {
    const missingId = "0193a000-0000-7000-8000-0000000000ff";
    for (const who of USERS) {
      const client = await mcpClient(who);
      try {
        for (const [fullName, id] of Object.entries(IDS)) {
          const result = await client.callTool({ name: "knowledge_open", arguments: { id } });
          if (READABLE[who].includes(fullName)) {
            expect([who, fullName, result.isError]).toEqual([who, fullName, undefined]);
            expect((result.structuredContent as { body: string }).body).toContain(`Body of ${id}`);
          } else {
            const text = (result.content as { text: string }[])[0]?.text ?? "";
            const missing = await client.callTool({
              name: "knowledge_open",
              arguments: { id: missingId },
            });
            const missingText = (missing.content as { text: string }[])[0]?.text ?? "";
            expect([who, fullName, JSON.parse(text).error.code]).toEqual([
              who,
              fullName,
              "entry_not_found",
            ]);
            expect(text).toBe(missingText.replaceAll(missingId, id));
          }
        }
      } finally {
        await client.close();
      }
    }
  });

  it("counters count for the token's user: shown by recall, read by open", async () => {
    const before = team.index.stats("boris").find((r) => r.entryId === IDS["acme/public"]);
    const client = await mcpClient("boris");
    try {
      await client.callTool({ name: "knowledge_recall", arguments: { query: MATRIX_WORD } });
      await client.callTool({ name: "knowledge_open", arguments: { id: IDS["acme/public"] } });
    } finally {
      await client.close();
    }
    const rows = team.index.stats("boris");
    const row = rows.find((r) => r.entryId === IDS["acme/public"]);
    expect(row?.shown).toBe((before?.shown ?? 0) + 1);
    expect(row?.read).toBe((before?.read ?? 0) + 1);
    expect(rows.map((r) => r.entryId)).not.toContain(IDS["acme/secret"]);
    expect(team.index.stats().some((r) => r.entryId === IDS["acme/secret"])).toBe(false);
  });

  it("the knowledge-root tools are refused to a user who is not a site admin", async () => {
    const client = await mcpClient("anna");
    try {
      const result = await client.callTool({ name: "knowledge_status", arguments: {} });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      expect(JSON.parse(text).error.code).toBe("forbidden");
    } finally {
      await client.close();
    }
  });
});

describe("drafts (seed 004: visible at once to whoever can read the repository, to nobody else)", () => {
  // Written after the tests above ran (describe blocks run in order), so their exact
  // listings and totals stay those of the files alone.
  const DRAFT_WORD = "matrixdraft";
  const draftIds: Record<string, string> = {};
  beforeAll(async () => {
    for (const fullName of Object.keys(IDS)) {
      const draft = await writeDraft(
        { index: team.index, limitFor: async () => DRAFT_LIMIT_DEFAULT },
        {
          repo: fullName,
          author: "anna",
          input: {
            branch: "feature/drafts",
            title: `Draft of ${fullName}`,
            body: `Draft body of ${fullName}`,
            words: [DRAFT_WORD],
          },
        },
      );
      draftIds[fullName] = draft.id;
    }
  });

  async function mcpClient(who: Who): Promise<Client> {
    const client = new Client({ name: `drafts-${who}`, version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${team.tokens[who]}` } },
      }),
    );
    return client;
  }

  it("recall lists the drafts of readable repositories only, marked with their branch, and counts only them", async () => {
    for (const who of USERS) {
      const client = await mcpClient(who);
      try {
        const result = await client.callTool({
          name: "knowledge_recall",
          arguments: { query: DRAFT_WORD },
        });
        const answer = result.structuredContent as {
          hits: { id: string; repo: string; source: string; draft?: boolean; branch?: string }[];
          total: number;
        };
        expect([who, answer.hits.map((hit) => hit.repo).sort()]).toEqual([who, READABLE[who]]);
        expect([who, answer.total]).toEqual([who, READABLE[who].length]);
        for (const hit of answer.hits) {
          expect(hit).toMatchObject({
            id: draftIds[hit.repo],
            source: hit.repo,
            draft: true,
            branch: "feature/drafts",
          });
        }
        expect(JSON.stringify(result)).not.toContain(draftIds["acme/secret"]);
        expect(JSON.stringify(result)).not.toContain("secret");
      } finally {
        await client.close();
      }
    }
  });

  it("open returns a readable draft's body and entry_not_found for a hidden one, as for a missing id", async () => {
    const missingId = "0193a000-0000-7000-8000-0000000000fe";
    for (const who of USERS) {
      const client = await mcpClient(who);
      try {
        const missing = await client.callTool({
          name: "knowledge_open",
          arguments: { id: missingId },
        });
        const missingText = (missing.content as { text: string }[])[0]?.text ?? "";
        for (const [fullName, id] of Object.entries(draftIds)) {
          const result = await client.callTool({ name: "knowledge_open", arguments: { id } });
          if (READABLE[who].includes(fullName)) {
            expect([who, fullName, result.isError]).toEqual([who, fullName, undefined]);
            expect(result.structuredContent).toMatchObject({
              id,
              repo: fullName,
              path: `.gitriver/knowledge/${id}.md`,
              draft: true,
              branch: "feature/drafts",
            });
            expect((result.structuredContent as { body: string }).body).toContain(
              `Draft body of ${fullName}`,
            );
          } else {
            const text = (result.content as { text: string }[])[0]?.text ?? "";
            expect([who, fullName, JSON.parse(text).error.code]).toEqual([
              who,
              fullName,
              "entry_not_found",
            ]);
            expect(text).toBe(missingText.replaceAll(missingId, id));
          }
        }
      } finally {
        await client.close();
      }
    }
  });

  it("the repository listing lists a readable repository's draft, marked, with no body; the others stay 404", async () => {
    for (const who of USERS) {
      for (const fullName of Object.keys(IDS)) {
        const answer = await get(who, `/api/v1/repos/${fullName}/knowledge`);
        if (!READABLE[who].includes(fullName)) {
          expect([who, fullName, answer.status, JSON.parse(answer.body)]).toEqual([
            who,
            fullName,
            404,
            { error: { code: "repo_not_found", message: `no repository ${fullName}` } },
          ]);
          expect(answer.body).not.toContain(draftIds[fullName]);
          continue;
        }
        const body = JSON.parse(answer.body) as { items: Record<string, unknown>[] };
        const fileId = IDS[fullName as keyof typeof IDS];
        expect(body.items.map((item) => [item.id, item.draft ?? false]).sort()).toEqual(
          [
            [fileId, false],
            [draftIds[fullName], true],
          ].sort(),
        );
        const draft = body.items.find((item) => item.draft === true);
        expect(draft).toMatchObject({
          path: `.gitriver/knowledge/${draftIds[fullName]}.md`,
          origin: "agent",
          summary: `Draft of ${fullName}`,
          branch: "feature/drafts",
          reachable: true,
        });
        expect(answer.body).not.toContain("Draft body of");
        // No draft of another repository, not even of a readable one.
        for (const [other, id] of Object.entries(draftIds)) {
          if (other !== fullName) expect(answer.body).not.toContain(id);
        }
      }
    }
  });
});
