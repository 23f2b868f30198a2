import { rm } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { callJson, IDS, MATRIX_WORD, startTeamFixture, type TeamFixture } from "./team-fixture.js";

/**
 * A hosted repository whose bare folder is gone (removed by hand, a disk moved) breaks
 * only itself (seed 004, team server: every read answers from the repositories the caller
 * may read): recall and open over real MCP answer from the others, its own knowledge route
 * says plainly that git could not find its folder, and no answer shows git's arguments.
 */
let team: TeamFixture;
let client: Client;

beforeAll(async () => {
  team = await startTeamFixture();
  // A new commit, then the folder gone: the next read must try to heal it, and cannot.
  await team.push("acme/private", { "docs/more.txt": "more\n" });
  await rm(bareRepoPath(team.data, "acme/private"), { recursive: true, force: true });
  client = new Client({ name: "missing-folder", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${team.tokens.anna}` } },
    }),
  );
});
afterAll(async () => {
  await client?.close();
  await team?.close();
});

/** The JSON text of a tool's answer. */
function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text: string }[];
  return content.map((part) => part.text).join("");
}

describe("a hosted repository whose folder is gone", () => {
  it("does not stop recall over MCP: the other repositories answer", async () => {
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: MATRIX_WORD },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const ids = JSON.parse(textOf(result)).hits.map((hit: { id: string }) => hit.id);
    expect(ids).toContain(IDS["acme/public"]);
  });

  it("does not stop open of another repository's entry", async () => {
    const result = await client.callTool({
      name: "knowledge_open",
      arguments: { id: IDS["acme/public"] },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toContain("Entry of acme/public");
  });

  it("its own route says git could not find the folder, with no git arguments", async () => {
    const gone = await callJson(
      team.base,
      team.tokens.anna,
      "GET",
      "/api/v1/repos/acme/private/knowledge",
    );
    expect(gone.status).toBe(500);
    expect(gone.body).toEqual({
      error: {
        code: "git_failed",
        message: "git failed: the repository's folder does not exist (moved or removed)",
      },
    });
    const other = await callJson(
      team.base,
      team.tokens.anna,
      "GET",
      "/api/v1/repos/acme/public/knowledge",
    );
    expect(other.status).toBe(200);
    expect(other.body.items.map((item: { id: string }) => item.id)).toEqual([IDS["acme/public"]]);
  });
});
