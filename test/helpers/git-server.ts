import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import {
  createGitServices,
  type GitServiceLimits,
} from "../../src/adapters/git-cli/spawn-git-service.js";
import type { AccessLevel, Scope } from "../../src/core/access/rights.js";
import { gitHttpRoutes } from "../../src/http/git/git-http-routes.js";
import { openServerStore } from "../../src/main/open-server.js";
import type { GitServices } from "../../src/ports/git-service.js";
import type { ServerStore } from "../../src/ports/server-store.js";
import { createRepo } from "../../src/services/access/hosted-repos.js";
import { addKey } from "../../src/services/access/ssh-keys.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { type RunningSshServer, startSshServer } from "../../src/ssh/ssh-server.js";

/** Options of {@link startGitServer}. */
export interface GitServerOptions {
  /** Bounds of the git processes (default: the server's defaults). */
  limits?: Partial<GitServiceLimits>;
  /** Start the SSH server too. Default true. */
  ssh?: boolean;
  /** Extra environment of the git processes (and their hooks). */
  env?: Record<string, string>;
  /** Runs after a repository's bare folder exists (e.g. installs Lore's hooks). */
  afterCreate?: (dir: string) => Promise<void>;
  /** Where both transports log (git's stderr, cut answers). Default: nowhere. */
  log?: (line: string) => void;
  /** Mounts more routes on the same app before the git routes (e.g. the API). */
  mount?: (app: Hono, server: { store: ServerStore; dataDir: string }) => void;
}

/** A test user: their token and the path of their SSH private key. */
export interface TestUser {
  name: string;
  token: string;
  keyPath: string;
}

/** The output of one run of the real `git` client. */
export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** How a git client reaches the server in {@link GitTestServer.git}. */
export type Via = "http" | "ssh";

/** A team server's git transports on 127.0.0.1 over a temp data folder, for tests. */
export interface GitTestServer {
  dataDir: string;
  store: ServerStore;
  /** The bounded git processes both transports share (see `load()`). */
  services: GitServices;
  httpPort: number;
  /** `http://127.0.0.1:<port>`. */
  httpBase: string;
  /** 0 when SSH is off. */
  sshPort: number;
  /** A temp folder for the test's own work trees. */
  work: string;
  /** Adds a user with a token (default scopes: all git and knowledge ones) and an SSH key. */
  addUser(name: string, options?: { scopes?: Scope[]; siteAdmin?: boolean }): Promise<TestUser>;
  /** Creates a hosted repository; returns its bare folder. */
  createRepo(fullName: string, options?: { public?: boolean }): Promise<string>;
  /** Grants a user a level on a repository. */
  grant(user: string, fullName: string, level: AccessLevel): Promise<void>;
  /** The clone URL of a repository over HTTP or SSH. */
  url(fullName: string, via: Via): string;
  /**
   * Runs the real git client as `user` (token as Basic password via a credential helper
   * over HTTP, the user's key over SSH; no user = no credentials), in `cwd`.
   */
  git(
    args: readonly string[],
    options: { cwd?: string; user?: TestUser; via?: Via; env?: Record<string, string> },
  ): Promise<ClientRun>;
  /** Stops both servers, closes the store, removes the folders. */
  close(): Promise<void>;
}

/**
 * The OpenSSH client options of every test that talks to the server's SSH port: no user
 * config, no host key check (each test server makes a new host key), only the key given
 * with `-i`, never a prompt, errors only.
 */
export const SSH_CLIENT_OPTIONS: readonly string[] = [
  "-F",
  "/dev/null",
  "-o",
  "StrictHostKeyChecking=no",
  "-o",
  "UserKnownHostsFile=/dev/null",
  "-o",
  "IdentitiesOnly=yes",
  "-o",
  "BatchMode=yes",
  "-o",
  "LogLevel=ERROR",
];

/** Runs a program to its end (no shell), collecting its output; times out after 10 min. */
export function runProgram(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env: Record<string, string> },
): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, shell: false });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.end();
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

/**
 * Starts the git smart-HTTP routes (on a Hono app served by `@hono/node-server`) and the
 * SSH server on 127.0.0.1 with free ports, over a fresh data folder and a real SQLite
 * store.
 */
export async function startGitServer(options: GitServerOptions = {}): Promise<GitTestServer> {
  const root = await mkdtemp(join(tmpdir(), "lore-git-server-"));
  const dataDir = join(root, "data");
  const work = join(root, "work");
  const clientHome = join(root, "client-home");
  await mkdir(work, { recursive: true });
  await mkdir(clientHome, { recursive: true });
  const store = await openServerStore(dataDir);
  const git = createGitServices({
    ...options.limits,
    ...(options.env ? { env: options.env } : {}),
  });
  const app = new Hono();
  options.mount?.(app, { store, dataDir });
  const log = options.log === undefined ? {} : { log: options.log };
  app.route("/", gitHttpRoutes({ store, dataDir, git, ...log }));
  const http = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => {
    if (http.listening) resolve();
    else http.once("listening", () => resolve());
  });
  const httpPort = (http.address() as AddressInfo).port;
  let ssh: RunningSshServer | undefined;
  if (options.ssh !== false) {
    ssh = await startSshServer({ store, dataDir, host: "127.0.0.1", port: 0, git, ...log });
  }
  const sshPort = ssh?.port ?? 0;
  const now = Date.now();

  const clientEnv = (extra: Record<string, string>): Record<string, string> => ({
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: clientHome,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.com",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.com",
    LC_ALL: "C",
    ...extra,
  });

  const server: GitTestServer = {
    dataDir,
    store,
    services: git,
    httpPort,
    httpBase: `http://127.0.0.1:${httpPort}`,
    sshPort,
    work,
    async addUser(name, userOptions = {}) {
      await addUser(store, { name, siteAdmin: userOptions.siteAdmin ?? false, now });
      const created = await createToken(store, {
        user: name,
        scopes: userOptions.scopes ?? [
          "knowledge:read",
          "knowledge:write",
          "repo:read",
          "repo:write",
        ],
        now,
      });
      const keyPath = join(root, `key-${name}`);
      const made = await runProgram(
        "ssh-keygen",
        ["-q", "-t", "ed25519", "-N", "", "-C", `${name}@test`, "-f", keyPath],
        { env: clientEnv({}) },
      );
      if (made.code !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
      await addKey(store, { user: name, text: await readFile(`${keyPath}.pub`, "utf8"), now });
      return { name, token: created.secret, keyPath };
    },
    async createRepo(fullName, repoOptions = {}) {
      const { dir } = await createRepo(
        {
          store,
          dataDir,
          initBare: initBareRepo,
          ...(options.afterCreate ? { afterCreate: options.afterCreate } : {}),
        },
        { fullName, public: repoOptions.public ?? false, now },
      );
      return dir;
    },
    async grant(user, fullName, level) {
      const record = await store.getUser(user);
      const repo = await store.getRepo(fullName);
      if (record === undefined || repo === undefined) throw new Error("no such user or repo");
      await store.grant({ repoId: repo.id, subject: { kind: "user", id: record.id }, level });
    },
    url(fullName, via) {
      return via === "http"
        ? `http://127.0.0.1:${httpPort}/${fullName}.git`
        : `ssh://git@127.0.0.1:${sshPort}/${fullName}.git`;
    },
    git(args, runOptions) {
      const extra: Record<string, string> = { ...runOptions.env };
      const config: [string, string][] = [];
      if (runOptions.user !== undefined && runOptions.via !== "ssh") {
        // git asks the helper after the server's 401; the token is the password.
        config.push([
          "credential.helper",
          `!f() { echo username=${runOptions.user.name}; echo password=${runOptions.user.token}; }; f`,
        ]);
      }
      if (runOptions.via === "ssh") {
        const key = runOptions.user?.keyPath ?? join(root, "no-such-key");
        extra.GIT_SSH_COMMAND = ["ssh", ...SSH_CLIENT_OPTIONS, "-i", key].join(" ");
      }
      config.forEach(([key, value], at) => {
        extra[`GIT_CONFIG_KEY_${at}`] = key;
        extra[`GIT_CONFIG_VALUE_${at}`] = value;
      });
      if (config.length > 0) extra.GIT_CONFIG_COUNT = String(config.length);
      return runProgram("git", args, { cwd: runOptions.cwd ?? work, env: clientEnv(extra) });
    },
    async close() {
      await ssh?.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        (http as import("node:http").Server).closeAllConnections?.();
      });
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
  return server;
}

/** The answer to one raw HTTP request. */
export interface RawAnswer {
  status: number;
  headers: import("node:http").IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one HTTP request with the path exactly as given (no URL normalisation: `..` and
 * `%2e%2e` reach the server as written, unlike `fetch`).
 */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, method, path, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
