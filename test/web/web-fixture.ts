/**
 * A real `lore serve` for the web view's browser tests and bench: its own sandbox (HOME, XDG
 * folders, index), a Pro test licence (or none: Community), two hosted repositories filled by
 * a real `git push` — `acme/app` (anna writes it) and `acme/hidden` (boris reads it; anna
 * cannot) — users and tokens made over the admin API with the owner's token, and `dist/web`
 * built by Vite (once per source change, across test files: see {@link ensureWebBuild}).
 * {@link WebServer.recall} makes real recalls over the server's `/mcp` with a user's token
 * (the MCP SDK client), so load receipts exist to be shown.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { isolatedEnv } from "../e2e/run-lore.js";
import { type ServedLore, startServe } from "../e2e/serve-lore.js";
import { makeRepo, type RepoFiles, type TestRepo } from "../helpers/make-repo.js";
import { makeTestLicenceKey } from "../helpers/test-licence.js";

/** The checkout's root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where the browser tests keep screenshots (git-ignored). */
export const ARTEFACTS = join(ROOT, "test-results", "web");

/** The browser the tests drive: Debian's Chromium. */
export const CHROMIUM = "/usr/bin/chromium";

function newest(dir: string): number {
  let latest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, name.name);
    latest = Math.max(latest, name.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Builds `dist/web` with Vite unless it is newer than every file of `src/web`. Test files run
 * in parallel processes: a lock folder (mkdir is atomic) keeps one build at a time.
 *
 * @throws Error when the build fails.
 */
export async function ensureWebBuild(): Promise<void> {
  const index = join(ROOT, "dist", "web", "index.html");
  const lock = join(ROOT, "dist", ".web-build-lock");
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (tries > 600) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (existsSync(index) && statSync(index).mtimeMs > newest(join(ROOT, "src", "web"))) return;
    const vite = join(ROOT, "node_modules", "vite", "bin", "vite.js");
    const built = spawnSync(
      process.execPath,
      [vite, "build", "--config", "src/web/vite.config.ts", "--logLevel", "warn"],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (built.status !== 0) throw new Error(`vite build failed:\n${built.stdout}${built.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A token's user. */
export type WebUser = "anna" | "boris";

/** A running server for the web tests. */
export interface WebServer {
  served: ServedLore;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  /** Token secrets: the owner (site admin), anna and boris. */
  tokens: Record<"owner" | WebUser, string>;
  /** One JSON call with a bearer token. */
  api<T = unknown>(
    who: "owner" | WebUser,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  /** Pushes files onto a repository's main branch (a new commit). */
  push(fullName: string, files: RepoFiles): Promise<void>;
  /**
   * `knowledge_recall` over `/mcp` with a user's token, one call per argument object, in
   * order, in one MCP session of a client named `client` (its receipts' client).
   *
   * @throws Error when a call answers an error.
   */
  recall(who: WebUser, calls: readonly Record<string, unknown>[], client?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startWebServer}. */
export interface WebServerOptions {
  /** The edition: `pro` (a test licence) or `community` (no licence). */
  edition: "pro" | "community";
  /** The first push of each repository. */
  files: Record<"acme/app" | "acme/hidden", RepoFiles>;
}

/**
 * Starts the server (see the module header).
 *
 * @param options - see {@link WebServerOptions}.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const key = options.edition === "pro" ? makeTestLicenceKey() : undefined;
  const sandbox = isolatedEnv(key?.env ?? {});
  if (key) {
    const config = join(sandbox.dir, "config", "lore");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      join(config, "lore.toml"),
      `[server]\nlicense = ${JSON.stringify(key.write({ edition: "pro" }))}\n`,
    );
  }
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  for (const fullName of Object.keys(options.files)) {
    await createRepo(
      { store, dataDir: data, initBare: initBareRepo },
      { fullName, now: Date.now() },
    );
  }
  await store.close();
  const works = new Map<string, TestRepo>();
  const push = async (fullName: string, files: RepoFiles) => {
    let work = works.get(fullName);
    if (work === undefined) {
      work = await makeRepo(files);
      works.set(fullName, work);
    } else {
      await work.commit(files);
    }
    await runGit({
      cwd: work.dir,
      args: ["push", "-q", "--force"],
      values: [bareRepoPath(data, fullName), "HEAD:refs/heads/main"],
    });
  };
  for (const [fullName, files] of Object.entries(options.files)) await push(fullName, files);
  const served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  const base = `http://127.0.0.1:${served.url.port}`;
  const tokens: Record<"owner" | WebUser, string> = { owner: served.token, anna: "", boris: "" };
  const api = async <T>(who: "owner" | WebUser, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens[who]}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text === "" ? undefined : JSON.parse(text)) as T };
  };
  const scopes = ["knowledge:read", "knowledge:write", "repo:read", "repo:write"];
  for (const [user, repo, level] of [
    ["anna", "acme/app", "write"],
    ["boris", "acme/hidden", "read"],
  ] as const) {
    const made = await api("owner", "POST", "/api/v1/admin/users", { name: user });
    if (made.status !== 201) throw new Error(`user ${user}: ${JSON.stringify(made.body)}`);
    const token = await api<{ secret: string }>("owner", "POST", "/api/v1/admin/tokens", {
      user,
      scopes,
    });
    if (token.status !== 201) throw new Error(`token ${user}: ${JSON.stringify(token.body)}`);
    tokens[user] = token.body.secret;
    const granted = await api("owner", "PUT", `/api/v1/admin/repos/${repo}/access/${user}`, {
      level,
    });
    if (granted.status !== 200) throw new Error(`grant ${user}: ${JSON.stringify(granted.body)}`);
  }
  const recall = async (
    who: WebUser,
    calls: readonly Record<string, unknown>[],
    client = "web-test-agent",
  ) => {
    const mcp = new Client({ name: client, version: "1" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", base), {
        requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
      }),
    );
    try {
      for (const args of calls) {
        const result = await mcp.callTool({ name: "knowledge_recall", arguments: args });
        if (result.isError)
          throw new Error(`recall ${JSON.stringify(args)}: ${JSON.stringify(result)}`);
      }
    } finally {
      await mcp.close();
    }
  };
  return {
    served,
    base,
    tokens,
    api,
    push,
    recall,
    async stop() {
      await served.stop();
      for (const work of works.values()) await work.cleanup();
      sandbox.cleanup();
      if (key) rmSync(key.dir, { recursive: true, force: true });
    },
  };
}

/**
 * An entry file with an id, a summary, `on_query` words and links.
 *
 * @param id - a UUIDv7.
 * @param summary - its summary (one line).
 * @param words - its contract's words.
 * @param links - ids it links to.
 * @param body - the markdown body.
 */
export function entryFile(
  id: string,
  summary: string,
  words: readonly string[],
  links: readonly string[] = [],
  body = `${summary}.`,
): string {
  const linkLines = links.length === 0 ? "" : `links:\n${links.map((l) => `  - ${l}\n`).join("")}`;
  return `---
id: ${id}
origin: human
contract:
  - mechanism: on_query
    params:
      words: [${words.map((w) => JSON.stringify(w)).join(", ")}]
${linkLines}summary: ${JSON.stringify(summary)}
---

${body}
`;
}
