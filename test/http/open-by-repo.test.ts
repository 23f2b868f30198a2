import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToken } from "../../src/services/access/tokens.js";
import { entryFile, IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

/**
 * `knowledge_open` with `repo` (seed 004, team server: ids are unique within a repository,
 * not across them): an id two readable repositories hold is ambiguous without `repo` and
 * opens the named repository's entry with it; `repo` never reveals a repository the caller
 * cannot read (the same refusal as for one that does not exist). Real MCP client over
 * real HTTP with each user's token.
 */
const SHARED = IDS["acme/private"];
let team: TeamFixture;
const clients = new Map<string, Client>();

beforeAll(async () => {
  team = await startTeamFixture({
    extra: {
      // acme/public holds an entry with acme/private's id (a copy made across repositories).
      "acme/public": {
        ".gitriver/knowledge/copy.md": entryFile(SHARED, ["копия"], "Copy in acme/public"),
      },
    },
  });
  for (const user of ["anna", "boris"] as const) {
    const client = new Client({ name: `open-${user}`, version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${team.tokens[user]}` } },
      }),
    );
    clients.set(user, client);
  }
});
afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await team?.close();
});

/** Calls a tool as `user`; the parsed JSON text and whether it is an error. */
async function call(
  user: string,
  tool: string,
  args: Record<string, string>,
): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const result = await clients.get(user)?.callTool({ name: tool, arguments: args });
  const content = (result?.content ?? []) as { text: string }[];
  return {
    isError: result?.isError === true,
    body: JSON.parse(content.map((part) => part.text).join("")),
  };
}

/** Calls knowledge_open as `user`. */
function open(user: "anna" | "boris", args: Record<string, string>) {
  return call(user, "knowledge_open", args);
}

/** The error of a tool's answer. */
function errorOf(answer: { body: Record<string, unknown> }): Record<string, unknown> {
  return answer.body.error as Record<string, unknown>;
}

/** A REST GET as `token`: status and the parsed body. */
async function rest(
  path: string,
  token: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${team.base}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("knowledge_open by id within one repository", () => {
  it("an id two readable repositories hold is ambiguous without repo", async () => {
    const answer = await open("anna", { id: SHARED });
    expect(answer.isError).toBe(true);
    expect((answer.body.error as { code: string }).code).toBe("ambiguous_id");
    expect((answer.body.error as { next: string }).next).toContain(
      "knowledge_open again with `repo`",
    );
  });

  it("opens the named repository's entry with repo", async () => {
    const inPrivate = await open("anna", { id: SHARED, repo: "acme/private" });
    expect(inPrivate.isError, JSON.stringify(inPrivate.body)).toBe(false);
    expect(inPrivate.body).toMatchObject({
      id: SHARED,
      repo: "acme/private",
      summary: "Entry of acme/private",
    });
    const inPublic = await open("anna", { id: SHARED, repo: " acme/public " });
    expect(inPublic.body).toMatchObject({
      id: SHARED,
      repo: "acme/public",
      summary: "Copy in acme/public",
    });
  });

  it("a repository the caller cannot read is refused as one that does not exist", async () => {
    // boris reads acme/public only: the id is not ambiguous for him.
    const plain = await open("boris", { id: SHARED });
    expect(plain.body).toMatchObject({ repo: "acme/public", summary: "Copy in acme/public" });
    const hidden = await open("boris", { id: SHARED, repo: "acme/private" });
    const missing = await open("boris", { id: SHARED, repo: "acme/nothing" });
    expect(hidden.isError).toBe(true);
    expect(errorOf(hidden)).toMatchObject({
      code: "repo_not_found",
      message: "no repository acme/private",
    });
    expect(JSON.stringify(missing.body)).toBe(
      JSON.stringify(hidden.body).replaceAll("acme/private", "acme/nothing"),
    );
  });

  it("an upper-case repo is invalid_repo_name with the lower-case hint, as over REST", async () => {
    const byRest = await rest("/api/v1/repos/ACME/PRIVATE/knowledge", team.tokens.anna);
    expect(byRest.status).toBe(400);
    const restError = byRest.body.error as Record<string, unknown>;
    expect(restError.code).toBe("invalid_repo_name");
    for (const tool of ["knowledge_open"]) {
      const answer = await call("anna", tool, { id: SHARED, repo: "ACME/PRIVATE" });
      expect(answer.isError, tool).toBe(true);
      expect(errorOf(answer), tool).toMatchObject({
        code: "invalid_repo_name",
        message: restError.message,
      });
      expect(String(errorOf(answer).message)).toContain("write it lower-case: acme/private");
    }
  });

  it("an id not in the named repository is not found there", async () => {
    const answer = await open("anna", { id: IDS["acme/public"], repo: "acme/private" });
    expect((answer.body.error as { code: string }).code).toBe("entry_not_found");
  });
});

describe("a token without knowledge:read", () => {
  it("recall and open are forbidden naming the scope, as the REST knowledge routes", async () => {
    const token = (
      await createToken(team.store, { user: "anna", scopes: ["repo:read"], now: Date.now() })
    ).secret;
    const client = new Client({ name: "open-git-only", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.set("git-only", client);
    const byRest = await rest("/api/v1/repos/acme/private/knowledge", token);
    expect(byRest.status).toBe(403);
    expect(byRest.body.error).toMatchObject({
      code: "forbidden",
      message: "not allowed: this call needs scope knowledge:read",
    });
    for (const [tool, args] of [
      ["knowledge_recall", { query: "entry" }],
      ["knowledge_open", { id: SHARED }],
    ] as const) {
      const answer = await call("git-only", tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(errorOf(answer), tool).toMatchObject({
        code: "forbidden",
        message: "not allowed: this call needs scope knowledge:read",
      });
    }
  });
});
