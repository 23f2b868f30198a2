/**
 * The team server's read latency (the server bench: "`GET …/knowledge` at 1,000 entries and
 * MCP recall over HTTP with a token: p50/p99"). Builds, in a temp folder, a data folder with
 * one user and token and a hosted repository of 1,000 entries filled by a real `git push`,
 * indexes it, serves the real HTTP application on 127.0.0.1, then times sequential requests
 * with `fetch` (keep-alive): `GET /api/v1/repos/acme/bench/knowledge` (the whole listing)
 * and `POST /mcp` `tools/call knowledge_recall` (one JSON-RPC call, stateless), each with
 * `Authorization: Bearer`. Prints p50 / p90 / p99 / max in ms. Writes nothing outside the
 * temp folder.
 *
 * Usage: `npm run build && node dist/bench/server/api-latency.js`; `BENCH_SAMPLES=N` sets
 * the timed requests per endpoint (default 500).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import { initBareRepo } from "../../adapters/git-cli/init-bare.js";
import { readFileAt } from "../../adapters/git-cli/read-file-at.js";
import { runGit } from "../../adapters/git-cli/run-git.js";
import { createHttpApp } from "../../http/create-http-app.js";
import { openIndex } from "../../index/entry-index.js";
import { indexHostedRepo } from "../../main/index-hosted-repo.js";
import { openServerStore } from "../../main/open-server.js";
import { createServerApi } from "../../main/server-api.js";
import { createMcpServer } from "../../mcp/create-mcp-server.js";
import { bareRepoPath, createRepo } from "../../services/access/hosted-repos.js";
import { createToken } from "../../services/access/tokens.js";
import { addUser } from "../../services/access/users.js";
import { type LatencyStats, summarize } from "../latency-stats.js";

const ENTRIES = 1_000;
const TOPICS = 50;

function entry(i: number): string {
  const id = `0193c000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
  return `---
id: ${id}
origin: human
contract:
  - mechanism: on_query
    params:
      words: ["topic${i % TOPICS}", "deploy"]
---

Entry ${i} about topic${i % TOPICS}: how the team deploys service ${i} and rolls it back.
`;
}

async function git(cwd: string, args: string[], values: string[] = []): Promise<void> {
  await runGit({
    cwd,
    args,
    values,
    env: { GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z" },
  });
}

async function time(samples: number, run: () => Promise<void>): Promise<LatencyStats> {
  for (let i = 0; i < 20; i++) await run();
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await run();
    out.push(performance.now() - t0);
  }
  return summarize(out);
}

function line(name: string, stats: LatencyStats): string {
  const f = (ms: number) => `${ms.toFixed(2)} ms`;
  return `${name}: p50 ${f(stats.p50)}, p90 ${f(stats.p90)}, p99 ${f(stats.p99)}, max ${f(stats.max)} (${stats.count} requests)`;
}

async function main(): Promise<void> {
  const samples = Number(process.env.BENCH_SAMPLES ?? 500);
  const root = mkdtempSync(join(tmpdir(), "lore-api-bench-"));
  try {
    const data = join(root, "data");
    const store = await openServerStore(data);
    const index = openIndex(join(root, "index.db"));
    const now = Date.now();
    await addUser(store, { name: "bench", now });
    const { secret } = await createToken(store, {
      user: "bench",
      scopes: ["knowledge:read", "repo:read"],
      now,
    });
    await createRepo(
      { store, dataDir: data, initBare: initBareRepo },
      { fullName: "acme/bench", public: true, now },
    );
    const work = join(root, "work");
    for (let i = 0; i < ENTRIES; i++) {
      const file = join(work, ".gitriver", "knowledge", `e${String(i).padStart(4, "0")}.md`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, entry(i));
    }
    await git(work, ["init", "-q", "-b", "main"]);
    await git(work, ["add", "-A"]);
    await git(work, [
      "-c",
      "user.name=bench",
      "-c",
      "user.email=bench@example.invalid",
      "commit",
      "-q",
      "-m",
      "entries",
    ]);
    await git(work, ["push", "-q"], [bareRepoPath(data, "acme/bench"), "HEAD:refs/heads/main"]);
    const api = createServerApi({
      store,
      index,
      dataDir: data,
      freshen: indexHostedRepo(index),
      readFile: readFileAt,
    });
    const app = createHttpApp({
      api,
      loopbackOnly: true,
      createMcpServer: (principal, lang) => createMcpServer(api.mcpPort(principal), { lang }),
    });
    const http = createServer(getRequestListener(app.fetch));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const auth = { authorization: `Bearer ${secret}` };

    const listing = async () => {
      const response = await fetch(`${base}/api/v1/repos/acme/bench/knowledge`, {
        headers: auth,
      });
      const body = (await response.json()) as { items: unknown[] };
      if (response.status !== 200 || body.items.length !== ENTRIES) {
        throw new Error(`knowledge answered ${response.status} with ${body.items.length} items`);
      }
    };
    let id = 0;
    const recall = async () => {
      id++;
      const response = await fetch(`${base}/mcp`, {
        method: "POST",
        headers: {
          ...auth,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "knowledge_recall",
            arguments: { query: `topic${id % TOPICS} deploy rollback` },
          },
        }),
      });
      const body = (await response.json()) as {
        result?: { structuredContent?: { hits: unknown[] } };
      };
      if (response.status !== 200 || (body.result?.structuredContent?.hits.length ?? 0) === 0) {
        throw new Error(
          `recall answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`,
        );
      }
    };
    console.log(`lore server API latency: 1 hosted repository of ${ENTRIES} entries, 127.0.0.1`);
    console.log(line("GET /api/v1/repos/{owner}/{name}/knowledge", await time(samples, listing)));
    console.log(line("MCP knowledge_recall over POST /mcp", await time(samples, recall)));
    await new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
    index.close();
    await store.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
