/**
 * A real team server for the load bench and the crash test (seed 004 "Интерфейс": the load
 * and the crash of the team server): `node <main> serve` spawned on 127.0.0.1 with a data
 * folder, index and configuration of its own in a temp folder, set up with the real
 * administration commands (`lore repo create`, `user add`, `token create`, `access grant`),
 * and a hosted repository filled by the real git client pushing over smart HTTP.
 *
 * `main` is the built CLI (`dist/cli/main.js`); the bench passes its own sibling, the tests
 * `test/e2e/run-lore.ts`'s `LORE_BIN`. Nothing is written outside the temp folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A temp home of one team server: environment, folders and the CLI to run. */
export interface TeamHome {
  /** The temp folder holding everything. */
  dir: string;
  /** The environment every `lore` and `git` child gets (own HOME, XDG folders, index). */
  env: Record<string, string>;
  /** The built CLI, `…/dist/cli/main.js`. */
  main: string;
  /** The server's data folder (`$XDG_DATA_HOME/lore/server`). */
  data: string;
  /** The user's configuration file (`$XDG_CONFIG_HOME/lore/lore.toml`). */
  config: string;
  cleanup(): void;
}

/** What a finished child process gave back. */
export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Makes a temp home: HOME, XDG folders, `LORE_DB` = `<dir>/index.db`, English messages,
 * user `bench`.
 *
 * @param main - the built CLI.
 * @param extraEnv - more variables (e.g. `LORE_LICENSE_PUBLIC_KEY`).
 */
export function teamHome(main: string, extraEnv: Record<string, string> = {}): TeamHome {
  const dir = mkdtempSync(join(tmpdir(), "lore-team-load-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    LORE_DB: join(dir, "index.db"),
    LORE_USER: "bench",
    LORE_LANG: "en",
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
    ...extraEnv,
  };
  mkdirSync(env.HOME ?? dir, { recursive: true });
  return {
    dir,
    env,
    main,
    data: join(dir, "data", "lore", "server"),
    config: join(dir, "config", "lore", "lore.toml"),
    // A killed server's git and hook children may still be writing for a moment.
    cleanup: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }),
  };
}

/** Writes the user's configuration file of `home` (TOML text). */
export function writeConfig(home: TeamHome, toml: string): void {
  mkdirSync(dirname(home.config), { recursive: true });
  writeFileSync(home.config, toml);
}

/** Runs `command args` to its end in `cwd` with `env`. */
export function runChild(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
  });
}

/**
 * Runs `node <main> <args>` in the home and demands exit 0.
 *
 * @returns its stdout.
 * @throws Error naming the command, its exit code and stderr otherwise.
 */
export async function lore(home: TeamHome, args: readonly string[]): Promise<string> {
  const run = await runChild(process.execPath, [home.main, ...args], home.dir, home.env);
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** A running `lore serve`. */
export interface ServedTeam {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  base: string;
  port: number;
  /** The owner's token (`<data>/owner-token`, written on the first start). */
  ownerToken: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash) and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * Spawns `node <main> serve --port <port> --ssh-port 0` (127.0.0.1, the default host) and
 * waits for its address line.
 *
 * @param home - the temp home.
 * @param options - `port`: 0 (default) = any free one; `env`: variables over the home's
 *   (e.g. another `LORE_DB` for a rebuilt index).
 * @throws Error when it exits before listening (its stderr in the message).
 */
export async function serveTeam(
  home: TeamHome,
  options: { port?: number; env?: Record<string, string> } = {},
): Promise<ServedTeam> {
  const child = spawn(
    process.execPath,
    [home.main, "serve", "--port", String(options.port ?? 0), "--ssh-port", "0"],
    { cwd: home.dir, env: { ...home.env, ...options.env }, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const match = /serving MCP over HTTP at http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (match?.[1]) resolve(Number(match[1]));
    });
    child.once("close", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
  });
  const ownerToken = readFileSync(join(home.data, "owner-token"), "utf8").trim();
  const end = (signal: NodeJS.Signals) => async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await closed;
  };
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    port,
    ownerToken,
    stderr: () => stderr,
    stop: end("SIGTERM"),
    kill: end("SIGKILL"),
  };
}

/** Every scope a team member's token gets here. */
export const MEMBER_SCOPES = "knowledge:read,knowledge:write,repo:read,repo:write";

/**
 * Adds a user with a token of {@link MEMBER_SCOPES} and `level` on `repo`.
 *
 * @returns the token's secret.
 */
export async function addMember(
  home: TeamHome,
  user: string,
  repo: string,
  level: "read" | "write",
): Promise<string> {
  await lore(home, ["user", "add", user]);
  const token = (await lore(home, ["token", "create", user, "--scopes", MEMBER_SCOPES])).trim();
  await lore(home, ["access", "grant", user, repo, level]);
  return token;
}

/** An entry file of the load's repository. */
export interface LoadEntry {
  id: string;
  /** Its path in the repository. */
  path: string;
  text: string;
}

/** How many topics the entries' words spread over (recall queries name one). */
export const TOPICS = 40;

/**
 * The `i`-th entry: a fixed UUIDv7-shaped id, an `on_query` contract with the words
 * `topic<i % TOPICS>` and `deploy`, a one-line body.
 */
export function loadEntry(i: number): LoadEntry {
  const id = `0193c000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
  const text = `---
id: ${id}
origin: human
contract:
  - mechanism: on_query
    params:
      words: ["topic${i % TOPICS}", "deploy"]
---

Entry ${i} about topic${i % TOPICS}: how the team deploys service ${i} and rolls it back.
`;
  return { id, path: `.gitriver/knowledge/e${String(i).padStart(5, "0")}.md`, text };
}

/** `-c http.extraHeader=Authorization: Basic …` for the git client with `token`. */
export function gitAuth(token: string): string[] {
  const basic = Buffer.from(`x:${token}`).toString("base64");
  return ["-c", `http.extraHeader=Authorization: Basic ${basic}`];
}

/** Runs the real git client in `cwd`; demands exit 0. @returns its stdout. */
export async function git(home: TeamHome, cwd: string, args: readonly string[]): Promise<string> {
  const run = await runChild("git", args, cwd, home.env);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/**
 * Makes a work repository at `<home>/work-<name>` whose `origin` is the hosted `repo` on
 * `base` over smart HTTP, commits `entries` into `main` and pushes with the real git client.
 *
 * @returns the work repository's folder (later pushes may commit into it).
 */
export async function pushEntries(
  home: TeamHome,
  args: { base: string; token: string; repo: string; entries: readonly LoadEntry[] },
): Promise<string> {
  const work = join(home.dir, `work-${args.repo.replace("/", "-")}`);
  mkdirSync(work, { recursive: true });
  await git(home, work, ["init", "-q", "-b", "main"]);
  await git(home, work, ["remote", "add", "origin", `${args.base}/${args.repo}.git`]);
  for (const entry of args.entries) {
    mkdirSync(dirname(join(work, entry.path)), { recursive: true });
    writeFileSync(join(work, entry.path), entry.text);
  }
  await git(home, work, ["add", "-A"]);
  await git(home, work, ["commit", "-qm", `${args.entries.length} entries`]);
  await git(home, work, [...gitAuth(args.token), "push", "-q", "origin", "HEAD:main"]);
  return work;
}

/** One record of `GET …/knowledge` (the fields the checks compare). */
export interface ListedEntry {
  id: string;
  path: string;
  blob_sha: string;
  draft?: true;
  [field: string]: unknown;
}

/**
 * `GET /api/v1/repos/<repo>/knowledge` with `token`, the records sorted by id.
 *
 * @throws Error on a status other than 200 or a `partial` listing (the checks need it whole).
 */
export async function knowledgeListing(
  base: string,
  token: string,
  repo: string,
): Promise<ListedEntry[]> {
  const response = await fetch(`${base}/api/v1/repos/${repo}/knowledge`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { items: ListedEntry[]; partial?: string };
  if (response.status !== 200 || body.partial !== undefined) {
    throw new Error(`knowledge answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return body.items.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The file entries of `repo` as a fresh index built from the bare repository alone sees
 * them: stops nothing, but starts a second `lore serve` over the same data folder with an
 * empty index file (`LORE_DB=<dir>/rebuilt-<n>.db`), reads the listing (its first read
 * parses the default branch), and stops it. The caller's server must be stopped first
 * (one data folder, one server). Drafts are not in git, so not in the answer. Call it
 * last: a start re-installs the hosted repositories' hooks, which then write the rebuilt
 * index.
 */
export async function rebuiltListing(
  home: TeamHome,
  token: string,
  repo: string,
): Promise<ListedEntry[]> {
  const db = join(home.dir, `rebuilt-${Date.now()}.db`);
  const fresh = await serveTeam(home, { env: { LORE_DB: db } });
  try {
    return await knowledgeListing(fresh.base, token, repo);
  } finally {
    await fresh.stop();
  }
}
