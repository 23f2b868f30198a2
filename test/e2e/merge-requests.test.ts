import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entryFile } from "../http/team-fixture.js";
import { runGitClient } from "./git-client.js";
import type { LoreRun } from "./run-lore.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// Merge requests as a team meets them (seed 004, "Как знание выходит наружу", "Разбор при
// отправке"): `lore serve` from the built bin, branches pushed by the real git client over
// smart HTTP, a request opened over the API, approved and merged with `lore mr`, the merge
// commit read back with git, the merged knowledge found by recall right after.

const K = ".gitriver/knowledge";
const BASE_ID = "0193a000-0000-7000-8000-0000000000e1";
const MERGED_ID = "0193a000-0000-7000-8000-0000000000e2";
const WORD = "черепаха";

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let borisToken: string;
let gitEnv: Record<string, string>;
let work: string;
let clientConfig: string;

const lore = async (args: readonly string[]): Promise<LoreRun> => {
  const run = await runLore(args, { cwd: home.dir, env: home.env });
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
};
/** `lore mr …` as a client of the served team server, in the work clone. */
const mr = (args: readonly string[], token: string): Promise<LoreRun> =>
  runLore(["mr", ...args, "--config", clientConfig], {
    cwd: work,
    env: { ...home.env, LORE_TOKEN: token },
  });
const base = () => `${served.url.protocol}//${served.url.host}`;
const basic = (token: string) =>
  `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${token}`).toString("base64")}`;

async function pushBranch(branch: string, files: Record<string, string>, from: string | null) {
  if (from !== null) {
    expect((await runGitClient(["checkout", "-q", "-B", branch, from], work, gitEnv)).code).toBe(0);
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(work, path, ".."), { recursive: true });
    writeFileSync(join(work, path), text);
  }
  await runGitClient(["add", "-A"], work, gitEnv);
  await runGitClient(["commit", "-qm", `on ${branch}`], work, gitEnv);
  const push = await runGitClient(
    ["-c", basic(borisToken), "push", "origin", `HEAD:${branch}`],
    work,
    gitEnv,
  );
  expect(push.code, push.stderr).toBe(0);
  return (await runGitClient(["rev-parse", "HEAD"], work, gitEnv)).stdout.trim();
}

async function openPull(token: string, body: Record<string, unknown>): Promise<Response> {
  return fetch(`${base()}/api/v1/repos/acme/app/pulls`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** The owner's `knowledge_recall` of the merged entry's word over `/mcp`, as text. */
async function recallText(): Promise<string> {
  const recall = await fetch(`${base()}/mcp`, {
    method: "POST",
    headers: {
      ...served.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "knowledge_recall", arguments: { query: WORD } },
    }),
  });
  expect(recall.status).toBe(200);
  const text = await recall.text();
  expect(text).not.toContain('"isError":true');
  return text;
}

beforeAll(async () => {
  home = isolatedEnv();
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
  await lore(["repo", "create", "acme/app"]);
  await lore(["user", "add", "boris"]);
  const scopes = "knowledge:read,knowledge:write,repo:read,repo:write";
  borisToken = (await lore(["token", "create", "boris", "--scopes", scopes])).stdout.trim();
  await lore(["access", "grant", "boris", "acme/app", "write"]);
  clientConfig = join(home.dir, "client.toml");
  writeFileSync(clientConfig, `[server]\nurl = "${base()}"\n`);
  gitEnv = {
    PATH: home.env.PATH ?? "/usr/bin:/bin",
    HOME: home.env.HOME ?? home.dir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "Boris",
    GIT_AUTHOR_EMAIL: "boris@example.com",
    GIT_COMMITTER_NAME: "Boris",
    GIT_COMMITTER_EMAIL: "boris@example.com",
  };
  mkdirSync(home.env.HOME ?? "", { recursive: true });
  work = join(home.dir, "work");
  const clone = await runGitClient(
    ["-c", basic(borisToken), "clone", `${base()}/acme/app.git`, work],
    home.dir,
    gitEnv,
  );
  expect(clone.code, clone.stderr).toBe(0);
  // The clone of an empty repository: its first commit goes on main.
  await runGitClient(["symbolic-ref", "HEAD", "refs/heads/main"], work, gitEnv);
  await pushBranch("main", { [`${K}/base.md`]: entryFile(BASE_ID, ["основа"], "Base") }, null);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

describe("lore serve: a merge request from push to recall", () => {
  it("open over the API → lore mr approve → lore mr merge: a two-parent commit, the knowledge recalled at once", async () => {
    const mainBefore = (await runGitClient(["rev-parse", "HEAD"], work, gitEnv)).stdout.trim();
    const source = await pushBranch(
      "feature/turtle",
      { [`${K}/turtle.md`]: entryFile(MERGED_ID, [WORD], "Turtle knowledge") },
      "main",
    );
    // A client cannot declare its request machine-made.
    const machine = await openPull(borisToken, {
      source: "feature/turtle",
      title: "x",
      origin: "machine",
    });
    expect(machine.status).toBe(400);
    expect(((await machine.json()) as { error: { code: string } }).error.code).toBe(
      "unknown_field",
    );
    const opened = await openPull(borisToken, { source: "feature/turtle", title: "Turtles" });
    expect(opened.status).toBe(201);
    const number = ((await opened.json()) as { number: number }).number;
    expect(number).toBe(1);

    // The repository from the clone's origin remote (it points at the served server).
    const listed = await mr(["list", "--json"], served.token);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { number: 1, title: "Turtles", origin: "human", author: "boris", state: "open" },
    ]);
    const shown = await mr(["show", "1"], served.token);
    expect(shown.stdout).toContain("1 file(s) changed, +");

    const own = await mr(["approve", "1"], borisToken);
    expect(own.code).toBe(5);
    expect(own.stderr).toContain("forbidden");
    const approved = await mr(["approve", "1", "--repo", "acme/app"], served.token);
    expect(approved).toMatchObject({ code: 0, stdout: "#1 approved (1 approval(s))\n" });

    // Before the merge the entry is on a branch only: not in the index.
    expect(await recallText()).not.toContain(MERGED_ID);
    const merged = await mr(["merge", "1"], served.token);
    expect(merged.code, merged.stderr).toBe(0);
    const commit = /merged into main: ([0-9a-f]{40})/.exec(merged.stdout)?.[1] ?? "";
    expect(commit).not.toBe("");

    // Right after the merge, recall finds the merged knowledge.
    expect(await recallText()).toContain(MERGED_ID);

    // The merge commit, fetched with git: two parents, the old main and the source.
    const fetched = await runGitClient(
      ["-c", basic(borisToken), "fetch", "-q", "origin"],
      work,
      gitEnv,
    );
    expect(fetched.code, fetched.stderr).toBe(0);
    const parents = (
      await runGitClient(["rev-list", "--parents", "-n", "1", "origin/main"], work, gitEnv)
    ).stdout
      .trim()
      .split(" ");
    expect(parents).toEqual([commit, mainBefore, source]);
    const message = (await runGitClient(["log", "-1", "--format=%B", "origin/main"], work, gitEnv))
      .stdout;
    expect(message).toContain("Merge request #1: Turtles");
    expect(message).toContain("Approved-by: tester");

    const again = await mr(["merge", "1"], served.token);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("mr_not_open");
  });

  it("lore mr close closes; a reader's token without the server set up is server_not_configured", async () => {
    await pushBranch("feature/close", { "close.txt": "c\n" }, "origin/main");
    const opened = await openPull(borisToken, { source: "feature/close", title: "Close me" });
    const number = ((await opened.json()) as { number: number }).number;
    const closed = await mr(["close", String(number)], borisToken);
    expect(closed).toMatchObject({ code: 0, stdout: `#${number} closed\n` });
    const list = await mr(["list", "--state", "closed", "--json"], borisToken);
    expect(JSON.parse(list.stdout).map((p: { number: number }) => p.number)).toEqual([number]);
    const unconfigured = await runLore(["mr", "list", "--repo", "acme/app"], {
      cwd: home.dir,
      env: home.env,
    });
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.stderr).toContain("server_not_configured");
  });
});
