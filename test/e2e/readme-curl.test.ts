import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { ROLLBACK, ROLLBACK_ID } from "./fixture-entries.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

let repo: TestRepo;
let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let port = "";

beforeAll(async () => {
  // A repository set up as a newcomer does: `lore init`, no commit (read from disk).
  repo = await makeRepo({});
  sandbox = isolatedEnv();
  const init = await runLore(["init"], { cwd: repo.dir, env: sandbox.env });
  expect(init.code).toBe(0);
  // The hosted repository acme/app of the examples, filled by a real push.
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  app = await makeRepo({ ".gitriver/knowledge/deploy-rollback.md": ROLLBACK });
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [bareRepoPath(data, "acme/app"), "HEAD:refs/heads/main"],
  });
  served = await startServe(["--port", "0", "--repo", repo.dir], {
    cwd: sandbox.dir,
    env: sandbox.env,
  });
  port = served.url.port;
});

afterAll(async () => {
  await served?.stop();
  await repo.cleanup();
  await app?.cleanup();
  sandbox.cleanup();
});

/** Runs one README line against the test server. */
function curl(line: string): Promise<CurlAnswer> {
  return runReadmeCurl(line, port, { LORE_TOKEN: served.token });
}

describe("the README's curl examples against a real lore serve", () => {
  it("has one example per endpoint", () => {
    const lines = readmeCurlLines("curl-examples");
    expect(lines).toHaveLength(8);
    expect(lines[0]).toContain("/healthz");
    expect(lines[1]).toContain("/api/v1/user");
    expect(lines[2]).toMatch(/\/api\/v1\/repos$/);
    expect(lines[3]).toContain("/api/v1/repos/acme/app/knowledge");
    expect(lines[4]).toContain("/api/v1/repos/acme/app/raw/");
    expect(lines[5]).toContain("/api/v1/openapi.json");
    expect(lines[6]).toContain('"method":"tools/list"');
    expect(lines[7]).toContain('"name":"knowledge_recall"');
    for (const line of lines.slice(1)) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("GET /healthz answers 200 with status ok", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[0] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "ok", version: expect.any(String) });
  });

  it("GET /api/v1/user answers the owner", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[1] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: "tester", site_admin: true });
  });

  it("GET /api/v1/repos lists acme/app", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[2] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { full_name: "acme/app", public: false, default_branch: "main", permission: "admin" },
    ]);
  });

  it("GET …/knowledge lists the pushed entry, complete", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[3] ?? "");
    expect(answer.status).toBe(200);
    const body = answer.body as { items: { id: string; path: string }[]; partial?: string };
    expect(body.items.map((item) => [item.id, item.path])).toEqual([
      [ROLLBACK_ID, ".gitriver/knowledge/deploy-rollback.md"],
    ]);
    expect(body).not.toHaveProperty("partial");
  });

  it("GET …/raw/{path}?ref=main answers the file's bytes", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[4] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(ROLLBACK);
  });

  it("GET /api/v1/openapi.json answers the document", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[5] ?? "");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ openapi: "3.1.0" });
  });

  it("tools/list answers 200 with the thirteen tools (entry, root, draft, stats and receipts tools), no initialize first", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[6] ?? "");
    expect(answer.status).toBe(200);
    const tools = (answer.body as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((t) => t.name)).toHaveLength(13);
    expect(tools.map((t) => t.name)).toContain("knowledge_stats");
    expect(tools.map((t) => t.name)).toContain("knowledge_recall");
  });

  it("tools/call knowledge_recall answers 200 with the lore init entry as the hit", async () => {
    const answer = await curl(readmeCurlLines("curl-examples")[7] ?? "");
    expect(answer.status).toBe(200);
    const result = (
      answer.body as {
        result: { isError?: boolean; structuredContent: { hits: { summary: string }[] } };
      }
    ).result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.hits[0]?.summary).toMatch(/^Team knowledge lives in/);
  });
});

describe("a federation tool called over lore serve", () => {
  it("is federation_disabled saying lore mcp serves it", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...served.headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "knowledge_ask_projects", arguments: { query: "x", projects: ["a"] } },
      }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(answer.result.isError).toBe(true);
    const error = JSON.parse(answer.result.content[0]?.text ?? "{}").error;
    expect(error.code).toBe("federation_disabled");
    expect(error.message).toContain("served by lore mcp (stdio) only");
  });
});
