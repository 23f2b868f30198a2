import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** Calls knowledge_open as `user`; the parsed JSON text and whether it is an error. */
async function open(
  user: "anna" | "boris",
  args: Record<string, string>,
): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const result = await clients.get(user)?.callTool({ name: "knowledge_open", arguments: args });
  const content = (result?.content ?? []) as { text: string }[];
  return {
    isError: result?.isError === true,
    body: JSON.parse(content.map((part) => part.text).join("")),
  };
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
    expect((hidden.body.error as { code: string }).code).toBe("repo_not_indexed");
    expect((missing.body.error as { message: string }).message).toBe(
      (hidden.body.error as { message: string }).message.replace("acme/private", "acme/nothing"),
    );
  });

  it("an id not in the named repository is not found there", async () => {
    const answer = await open("anna", { id: IDS["acme/public"], repo: "acme/private" });
    expect((answer.body.error as { code: string }).code).toBe("entry_not_found");
  });
});
