import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Load receipts", run in order with real curl against a real
// `lore serve` holding the README's example entries, after one recall over `/mcp` through the
// real SDK client with the same token.

const EXAMPLES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "knowledge");
const ROLLBACK = "01921938-b600-7344-b7bb-b0d96211fc5a";

let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (const name of readdirSync(EXAMPLES).filter((f) => f.endsWith(".md"))) {
    files[`.gitriver/knowledge/${name}`] = readFileSync(join(EXAMPLES, name), "utf8");
  }
  app = await makeRepo(files);
  sandbox = isolatedEnv();
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [bareRepoPath(data, "acme/app"), "HEAD:refs/heads/main"],
  });
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  const client = new Client({ name: "readme-agent", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", served.url), {
      requestInit: { headers: served.headers },
    }),
  );
  try {
    const result = await client.callTool({
      name: "knowledge_recall",
      arguments: { query: "откат релиза" },
    });
    expect(result.isError).toBeFalsy();
  } finally {
    await client.close();
  }
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await app?.cleanup();
  sandbox?.cleanup();
});

describe("the README's receipts curl examples against a real lore serve", () => {
  it("has one example per receipts endpoint, each with the token", () => {
    const lines = readmeCurlLines("curl-examples-receipts");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("/api/v1/receipts?limit=5");
    expect(lines[1]).toContain("/api/v1/repos/acme/app/knowledge/receipts");
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("answer the recall's receipt: the client, the query, the rollback entry and why", async () => {
    const [own, repo] = readmeCurlLines("curl-examples-receipts") as string[];
    for (const line of [own as string, repo as string]) {
      const answer = await runReadmeCurl(line, served.url.port, { LORE_TOKEN: served.token });
      expect(answer.status, line).toBe(200);
      const body = answer.body as {
        items: { client: string; query: string; hits: { id: string; why: unknown[] }[] }[];
        next_cursor: string | null;
      };
      expect(body.next_cursor).toBeNull();
      expect(body.items).toHaveLength(1);
      expect(body.items[0]).toMatchObject({ client: "readme-agent", query: "откат релиза" });
      expect(body.items[0]?.hits[0]?.id).toBe(ROLLBACK);
      expect(body.items[0]?.hits[0]?.why).toContainEqual({ kind: "on_query", word: "откат" });
    }
  });
});
