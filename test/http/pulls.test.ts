/**
 * Merge requests over real HTTP (seed 004, "Как знание выходит наружу", "Происхождение
 * запроса ставит сервер", "Разбор при отправке"): the team fixture's real server, real bare
 * repositories filled by real `git push`es of branches, a real SQLite index.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { SCOPES } from "../../src/core/access/rights.js";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { createToken } from "../../src/services/access/tokens.js";
import { entryFile, startTeamFixture, type TeamFixture } from "./team-fixture.js";

const REPO = "acme/private";
const MERGED_ID = "0193a000-0000-7000-8000-0000000000f1";
const MERGED_WORD = "слияние";

let fx: TeamFixture;
let work: string;
let bare: string;
/** Tokens of every scope: boris and vera write on acme/private, anna reads. */
const full: Record<"anna" | "boris" | "vera", string> = { anna: "", boris: "", vera: "" };

async function git(args: readonly string[], values: readonly string[] = []): Promise<string> {
  const out = await runGit({
    cwd: work,
    args,
    values,
    env: {
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
    },
  });
  return out.stdout.toString("utf8").trim();
}

/** Writes files, commits them on `branch` (made from `from` when new) and pushes it. */
async function pushBranch(
  branch: string,
  files: Record<string, string>,
  from = "origin/main",
): Promise<string> {
  await git(["fetch", "-q", "origin"]);
  await git(["checkout", "-q", "-B"], [branch, from]);
  const { writeFile, mkdir } = await import("node:fs/promises");
  const { dirname } = await import("node:path");
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), text);
  }
  await git(["add", "-A"]);
  await git(["commit", "-q", "-m", `on ${branch}`]);
  await git(["push", "-q", "--force", "origin"], [`HEAD:refs/heads/${branch}`]);
  return git(["rev-parse", "HEAD"]);
}

async function head(branch: string): Promise<string> {
  const out = await runGit({ cwd: bare, args: ["rev-parse"], values: [`refs/heads/${branch}`] });
  return out.stdout.toString("latin1").trim();
}

async function call(
  user: keyof typeof full | string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{
  status: number;
  body: Record<string, unknown> & { error?: Record<string, unknown> };
}> {
  const token = user in full ? full[user as keyof typeof full] : user;
  const response = await fetch(`${fx.base}/api/v1/repos/${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

beforeAll(async () => {
  fx = await startTeamFixture();
  const repo = await fx.store.getRepo(REPO);
  for (const name of ["anna", "boris", "vera"] as const) {
    const user = await fx.store.getUser(name);
    if (repo === undefined || user === undefined) throw new Error("fixture");
    await fx.store.grant({
      repoId: repo.id,
      subject: { kind: "user", id: user.id },
      level: name === "anna" ? "read" : "write",
    });
    full[name] = (
      await createToken(fx.store, { user: name, scopes: SCOPES, now: Date.now() })
    ).secret;
  }
  bare = bareRepoPath(fx.data, REPO);
  work = await mkdtemp(join(tmpdir(), "lore-pulls-"));
  await runGit({ cwd: work, args: ["clone", "-q"], values: [bare], paths: ["."] });
});

afterAll(async () => {
  await fx?.close();
  await rm(work, { recursive: true, force: true });
});

describe("opening a merge request", () => {
  it("refuses a body carrying origin: machine with 400 unknown_field, and creates nothing", async () => {
    await pushBranch("feature/origin", { "notes.txt": "one\n" });
    const before = await call("boris", "GET", `${REPO}/pulls?state=all`);
    const answer = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/origin",
      title: "Mine is machine-made",
      origin: "machine",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "unknown_field", data: { field: "origin" } });
    expect(String(answer.body.error?.message)).toContain("origin");
    const after = await call("boris", "GET", `${REPO}/pulls?state=all`);
    expect(after.body).toEqual(before.body);
  });

  it("names any other unknown field, e.g. a typo", async () => {
    const answer = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/origin",
      titel: "typo",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "unknown_field", data: { field: "titel" } });
  });

  it("a body that is not JSON is 400 invalid_input, never a 500", async () => {
    for (const [type, body] of [
      ["application/json", "{not json"],
      ["text/plain", '{"source":"feature/origin","title":"x"}'],
    ] as const) {
      const response = await fetch(`${fx.base}/api/v1/repos/${REPO}/pulls`, {
        method: "POST",
        headers: { authorization: `Bearer ${full.boris}`, "content-type": type },
        body,
      });
      expect(response.status, type).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        "invalid_input",
      );
    }
  });

  it("opens with origin human, target = the default branch; a missing branch is branch_not_found", async () => {
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/origin",
      title: "Notes",
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      title: "Notes",
      body: "",
      source: "feature/origin",
      target: "main",
      state: "open",
      origin: "human",
      author: "boris",
      approvals: [],
    });
    expect(typeof opened.body.number).toBe("number");
    const missing = await call("boris", "POST", `${REPO}/pulls`, {
      source: "no-such-branch",
      title: "x",
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({
      code: "branch_not_found",
      data: { branch: "no-such-branch" },
    });
  });
});

describe("open → approve → merge", () => {
  it("merges with a two-parent commit and the merged knowledge is in the index at once", async () => {
    const mainBefore = await head("main");
    const source = await pushBranch("feature/knowledge", {
      [`.gitriver/knowledge/${MERGED_ID}.md`]: entryFile(MERGED_ID, [MERGED_WORD], "Merged entry"),
      "docs/readme.txt": "readme rewritten\n",
    });
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/knowledge",
      title: "Knowledge of the merge",
      body: "Adds an entry.",
    });
    const number = opened.body.number as number;
    const shown = await call("anna", "GET", `${REPO}/pulls/${number}`);
    expect(shown.status).toBe(200);
    // A new 13-line entry file and one line replaced in docs/readme.txt.
    const entryLines = entryFile(MERGED_ID, [MERGED_WORD], "Merged entry").split("\n").length - 1;
    expect(shown.body.diff_stat).toEqual({
      files: 2,
      insertions: entryLines + 1,
      deletions: 1,
    });

    const own = await call("boris", "POST", `${REPO}/pulls/${number}/approve`);
    expect(own.status).toBe(403);
    expect(own.body.error).toMatchObject({ code: "forbidden", data: { missing: "another_user" } });
    expect(String(own.body.error?.message)).toContain("another user");

    const approved = await call("vera", "POST", `${REPO}/pulls/${number}/approve`);
    expect(approved.status).toBe(200);
    expect((approved.body.approvals as { user: string }[]).map((a) => a.user)).toEqual(["vera"]);

    expect(fx.index.listFiles(REPO).has(`.gitriver/knowledge/${MERGED_ID}.md`)).toBe(false);
    const merged = await call("vera", "POST", `${REPO}/pulls/${number}/merge`);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ state: "merged", number });
    const commit = merged.body.merge_commit as string;
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await head("main")).toBe(commit);
    // The source could have been fast-forwarded; it still gets a merge commit.
    const parents = (
      await runGit({ cwd: bare, args: ["rev-list", "--parents", "-n", "1"], values: [commit] })
    ).stdout
      .toString("latin1")
      .trim()
      .split(" ")
      .slice(1);
    expect(parents).toEqual([mainBefore, source]);
    // Parsed like a push: no read in between, the index already holds the entry.
    expect(fx.index.listFiles(REPO).has(`.gitriver/knowledge/${MERGED_ID}.md`)).toBe(true);
    expect(fx.index.repository(REPO)?.commit).toBe(commit);

    const again = await call("vera", "POST", `${REPO}/pulls/${number}/merge`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "mr_not_open" });
    const list = await call("anna", "GET", `${REPO}/pulls?state=merged`);
    expect((list.body as unknown as { number: number }[]).map((p) => p.number)).toContain(number);
    const after = await call("anna", "GET", `${REPO}/pulls/${number}`);
    expect(after.body).toMatchObject({ merge_commit: commit, diff_stat: { files: 2 } });
    expect(typeof after.body.ended_at).toBe("string");
  });
});

describe("refusals of a merge", () => {
  it("a conflict is merge_conflict naming the path; the target ref is unchanged", async () => {
    await pushBranch("feature/conflict", { "docs/readme.txt": "theirs\n" }, "origin/main~1");
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/conflict",
      title: "Conflicting",
    });
    const before = await head("main");
    const answer = await call("vera", "POST", `${REPO}/pulls/${opened.body.number}/merge`);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toMatchObject({
      code: "merge_conflict",
      data: { paths: ["docs/readme.txt"] },
    });
    expect(String(answer.body.error?.message)).toContain("docs/readme.txt");
    expect(await head("main")).toBe(before);
    const shown = await call("vera", "GET", `${REPO}/pulls/${opened.body.number}`);
    expect(shown.body.state).toBe("open");
  });

  it("a protected target refuses a user the rule does not list: branch_protected", async () => {
    await pushBranch("release", { "release.txt": "1.0\n" });
    await pushBranch("feature/release", { "release.txt": "1.1\n" }, "origin/release");
    const repo = await fx.store.getRepo(REPO);
    const vera = await fx.store.getUser("vera");
    await fx.store.protectBranch({
      repoId: repo?.id ?? -1,
      pattern: "release",
      pushUserIds: [vera?.id ?? -1],
      pushGroupIds: [],
      allowForcePush: false,
    });
    const opened = await call("vera", "POST", `${REPO}/pulls`, {
      source: "feature/release",
      target: "release",
      title: "1.1",
    });
    const before = await head("release");
    const refused = await call("boris", "POST", `${REPO}/pulls/${opened.body.number}/merge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "branch_protected",
      data: { branch: "release", pattern: "release", why: "not_allowed" },
    });
    expect(await head("release")).toBe(before);
    const done = await call("vera", "POST", `${REPO}/pulls/${opened.body.number}/merge`);
    expect(done.status).toBe(200);
    expect(await head("release")).toBe(done.body.merge_commit);
  });

  it("2 required approvals and 1 given: approvals_required; the second one lets it merge", async () => {
    await pushBranch("stable", { "stable.txt": "a\n" });
    await pushBranch("feature/stable", { "stable.txt": "b\n" }, "origin/stable");
    const repo = await fx.store.getRepo(REPO);
    await fx.store.protectBranch({
      repoId: repo?.id ?? -1,
      pattern: "stable",
      pushUserIds: [],
      pushGroupIds: [],
      allowForcePush: false,
      requiredApprovals: 2,
    });
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/stable",
      target: "stable",
      title: "b",
    });
    const number = opened.body.number;
    await call("vera", "POST", `${REPO}/pulls/${number}/approve`);
    const refused = await call("vera", "POST", `${REPO}/pulls/${number}/merge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "approvals_required",
      data: { required: 2, count: 1 },
    });
    // A site admin's approval counts as the second.
    const admin = await fx.store.addUser({ name: "olga", siteAdmin: true, createdAt: Date.now() });
    const olga = (
      await createToken(fx.store, { user: admin.name, scopes: SCOPES, now: Date.now() })
    ).secret;
    expect((await call(olga, "POST", `${REPO}/pulls/${number}/approve`)).status).toBe(200);
    const merged = await call("vera", "POST", `${REPO}/pulls/${number}/merge`);
    expect(merged.status).toBe(200);
  });

  it("a closed request is mr_not_open for approve, merge and close", async () => {
    await pushBranch("feature/closed", { "closed.txt": "x\n" });
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/closed",
      title: "To close",
    });
    const number = opened.body.number;
    const closed = await call("boris", "POST", `${REPO}/pulls/${number}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ state: "closed" });
    for (const action of ["approve", "merge", "close"]) {
      const answer = await call("vera", "POST", `${REPO}/pulls/${number}/${action}`);
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({
        code: "mr_not_open",
        data: { number, state: "closed" },
      });
    }
    const list = await call("anna", "GET", `${REPO}/pulls?state=closed`);
    expect((list.body as unknown as { number: number }[]).map((p) => p.number)).toEqual([number]);
  });
});

describe("rights", () => {
  it("a reader lists and shows, but cannot open, approve, close another's or merge: forbidden", async () => {
    await pushBranch("feature/rights", { "rights.txt": "r\n" });
    const opened = await call("boris", "POST", `${REPO}/pulls`, {
      source: "feature/rights",
      title: "Rights",
    });
    const number = opened.body.number;
    expect((await call("anna", "GET", `${REPO}/pulls`)).status).toBe(200);
    expect((await call("anna", "GET", `${REPO}/pulls/${number}`)).status).toBe(200);
    for (const action of ["approve", "merge", "close"]) {
      const answer = await call("anna", "POST", `${REPO}/pulls/${number}/${action}`);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatchObject({ code: "forbidden" });
    }
    const open = await call("anna", "POST", `${REPO}/pulls`, {
      source: "feature/rights",
      title: "Mine",
    });
    expect(open.status).toBe(403);
    expect((await call("vera", "GET", `${REPO}/pulls/${number}`)).body.state).toBe("open");
  });

  it("a user with no access gets 404 repo_not_found for every call, as for a missing repository", async () => {
    for (const [method, path] of [
      ["GET", "acme/secret/pulls"],
      ["GET", "acme/secret/pulls/1"],
      ["POST", "acme/secret/pulls/1/approve"],
      ["POST", "acme/secret/pulls/1/merge"],
      ["POST", "acme/secret/pulls/1/close"],
      ["GET", "acme/nothing/pulls"],
    ] as const) {
      const answer = await call("anna", method, path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error).toMatchObject({ code: "repo_not_found" });
    }
    const open = await call("anna", "POST", "acme/secret/pulls", { source: "x", title: "y" });
    expect(open.status).toBe(404);
  });

  it("a request number that does not exist is mr_not_found; a bad state is invalid_input", async () => {
    const missing = await call("anna", "GET", `${REPO}/pulls/999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "mr_not_found" });
    const bad = await call("anna", "GET", `${REPO}/pulls?state=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_input" });
  });
});
