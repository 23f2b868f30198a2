import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { useTestLicence } from "../helpers/test-licence.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// Kill -9 of `lore serve` in the middle of a delivery (seed 004, "Что происходит с
// черновиком"; the issue's test list): 2,000 drafts of ~6 KB (two 10 MB batches), SIGKILL at
// several moments of the delivery; after each restart no draft is lost, none is delivered
// twice, the branch has whole commits only; a last delivery finishes the job.

const DRAFTS = 2_000;
const PATH = "/api/v1/repos/acme/bulk/knowledge/drafts";

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let bare: string;
let base: string;

function git(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["--git-dir", bare, ...args], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1", HOME: home.dir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`git ${args.join(" ")}: ${err}`)),
    );
  });
}

async function api(
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in the assertions.
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${served.url.protocol}//${served.url.host}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${served.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

interface Listed {
  id: string;
  delivered?: { branch: string; commit: string };
}

async function allDrafts(): Promise<Listed[]> {
  const out: Listed[] = [];
  let after: string | null = null;
  do {
    const page = await api(
      "GET",
      `${PATH}?per_page=100${after === null ? "" : `&after=${encodeURIComponent(after)}`}`,
    );
    expect(page.status).toBe(200);
    out.push(...page.body.items);
    after = page.body.next_cursor;
  } while (after !== null);
  return out;
}

/** The invariants after a crash: every draft there, whole commits only, no file twice. */
async function checkInvariants(): Promise<{ delivered: number; files: number }> {
  const drafts = await allDrafts();
  expect(drafts).toHaveLength(DRAFTS);
  const head = (await git(["rev-parse", "refs/heads/bulk"])).trim();
  const added = (
    await git(["log", "--format=", "--name-only", "--diff-filter=A", `${base}..${head}`])
  )
    .split("\n")
    .filter((line) => line !== "");
  expect(new Set(added).size).toBe(added.length);
  const changed = await git([
    "log",
    "--format=",
    "--name-only",
    "--diff-filter=MD",
    `${base}..${head}`,
  ]);
  expect(changed.trim()).toBe("");
  const ids = new Set(drafts.map((d) => d.id));
  for (const path of added) {
    const id = /^\.gitriver\/knowledge\/(.+)\.md$/.exec(path)?.[1];
    expect(id !== undefined && ids.has(id)).toBe(true);
  }
  // Every draft marked delivered has its file in the branch.
  const inTree = new Set(added);
  const marked = drafts.filter((d) => d.delivered !== undefined);
  for (const d of marked) expect(inTree.has(`.gitriver/knowledge/${d.id}.md`)).toBe(true);
  // Each commit is a whole batch: one commit per delivery batch, none empty.
  for (const commit of (await git(["rev-list", `${base}..${head}`])).split("\n").filter(Boolean)) {
    const files = (await git(["diff-tree", "--no-commit-id", "--name-only", "-r", commit]))
      .split("\n")
      .filter(Boolean);
    expect(files.length).toBeGreaterThan(0);
  }
  return { delivered: marked.length, files: added.length };
}

beforeAll(async () => {
  home = isolatedEnv();
  // Setting a draft limit (PUT) is the Max edition's.
  useTestLicence(home.env, "max");
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
  const lore = async (args: string[]) => {
    const run = await runLore(args, { cwd: home.dir, env: home.env });
    if (run.code !== 0) throw new Error(run.stderr);
    return run;
  };
  await lore(["repo", "create", "acme/bulk"]);
  const owner = (await api("GET", "/api/v1/user")).body.name as string;
  expect(
    (await api("PUT", `/api/v1/admin/knowledge/limits/users/${owner}`, { limit: 10_000 })).status,
  ).toBe(200);
  bare = bareRepoPath(join(home.env.XDG_DATA_HOME as string, "lore", "server"), "acme/bulk");
  // A first commit on main and a branch `bulk` from it, written with plumbing into the bare repository.
  const tree =
    (await git(["write-tree"]).catch(async () => "")).trim() ||
    "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  base = (
    await new Promise<string>((resolve, reject) => {
      const child = spawn("git", ["--git-dir", bare, "commit-tree", tree, "-m", "start"], {
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: home.dir,
          GIT_AUTHOR_NAME: "a",
          GIT_AUTHOR_EMAIL: "a@x",
          GIT_COMMITTER_NAME: "a",
          GIT_COMMITTER_EMAIL: "a@x",
        },
      });
      let out = "";
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
      });
      child.on("error", reject);
      child.on("close", () => resolve(out));
    })
  ).trim();
  await git(["update-ref", "refs/heads/main", base]);
  await git(["update-ref", "refs/heads/bulk", base]);
  const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(105);
  let next = 0;
  const writer = async () => {
    while (next < DRAFTS) {
      const i = next++;
      const answer = await api("POST", PATH, {
        branch: "bulk",
        title: `Bulk draft ${i}`,
        body: filler,
      });
      expect(answer.status).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: 20 }, writer));
}, 300_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

describe("kill -9 of lore serve during a delivery", () => {
  it("after each restart: no draft lost, none delivered twice, whole commits only; a last delivery finishes", async () => {
    const moments = [20, 150, 400, 900];
    for (const delay of moments) {
      const delivery = api("POST", `${PATH}/deliver`, { branch: "bulk", mode: "same" }).catch(
        () => undefined,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      const exited = new Promise((resolve) => served.child.once("close", resolve));
      served.child.kill("SIGKILL");
      await exited;
      await delivery;
      served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
      await checkInvariants();
    }
    const last = await api("POST", `${PATH}/deliver`, { branch: "bulk", mode: "same" });
    expect(last.status).toBe(200);
    const after = await checkInvariants();
    expect(after).toEqual({ delivered: DRAFTS, files: DRAFTS });
    // 2,000 files of ~6 KB: more than one 10 MB batch over all deliveries, each commit ≤ 10 MB.
    const commits = (await git(["rev-list", `${base}..refs/heads/bulk`]))
      .split("\n")
      .filter(Boolean);
    expect(commits.length).toBeGreaterThanOrEqual(2);
  }, 300_000);
});
