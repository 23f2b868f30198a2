import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { ROLLBACK } from "./fixture-entries.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's merge-request curl examples (section "Merge requests (team server)"), each run
// with real curl against a real `lore serve`, in order: #1 is opened by a teammate first.

let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let port = "";
let data = "";
let mainBefore = "";

beforeAll(async () => {
  sandbox = isolatedEnv();
  data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  app = await makeRepo({ "docs/deploy.md": "deploy\n" });
  const bare = bareRepoPath(data, "acme/app");
  await runGit({ cwd: app.dir, args: ["push", "-q"], values: [bare, "HEAD:refs/heads/main"] });
  mainBefore = (await app.git(["rev-parse", "HEAD"])).trim();
  await app.git(["checkout", "-q", "-b", "feature/retry"]);
  await app.commit({ ".gitriver/knowledge/deploy-rollback.md": ROLLBACK }, "retry");
  await app.git(["checkout", "-q", "-b", "feature/docs", "main"]);
  await app.commit({ "docs/rollback.md": "roll back\n" }, "docs");
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [
      bare,
      "feature/retry:refs/heads/feature/retry",
      "feature/docs:refs/heads/feature/docs",
    ],
  });
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  port = served.url.port;
  const lore = async (args: string[]) => {
    const done = await runLore(args, { cwd: sandbox.dir, env: sandbox.env });
    expect(done.code, done.stderr).toBe(0);
    return done.stdout.trim();
  };
  await lore(["user", "add", "anna"]);
  await lore(["access", "grant", "anna", "acme/app", "write"]);
  const anna = await lore(["token", "create", "anna", "--scopes", "repo:read,repo:write"]);
  // The teammate's request #1, which the README's lines approve and merge.
  const opened = await fetch(`http://127.0.0.1:${port}/api/v1/repos/acme/app/pulls`, {
    method: "POST",
    headers: { authorization: `Bearer ${anna}`, "content-type": "application/json" },
    body: JSON.stringify({ source: "feature/retry", title: "Retry the deploy on a 502" }),
  });
  expect(opened.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  await app?.cleanup();
  sandbox?.cleanup();
});

/** Runs one README line against the test server. */
async function curl(line: string): Promise<CurlAnswer & { body: Record<string, unknown> }> {
  const answer = await runReadmeCurl(line, port, { LORE_TOKEN: served.token });
  return { ...answer, body: answer.body as Record<string, unknown> };
}

describe("the README's merge-request curl examples against a real lore serve", () => {
  it("has one example per endpoint, plus the refused origin", () => {
    const lines = readmeCurlLines("curl-examples-pulls");
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("runs in order: list, open, origin refused, show, approve, merge, close", async () => {
    const [list, open, origin, show, approve, merge, close] = readmeCurlLines(
      "curl-examples-pulls",
    ) as [string, string, string, string, string, string, string];
    const listed = await curl(list);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject([
      { number: 1, author: "anna", state: "open", origin: "human", target: "main" },
    ]);

    const opened = await curl(open);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      number: 2,
      source: "feature/docs",
      target: "main",
      origin: "human",
      author: "tester",
    });

    const refused = await curl(origin);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: "unknown_field", data: { field: "origin" } },
    });

    const shown = await curl(show);
    expect(shown.status).toBe(200);
    const lines = ROLLBACK.split("\n").length - (ROLLBACK.endsWith("\n") ? 1 : 0);
    expect(shown.body.diff_stat).toEqual({ files: 1, insertions: lines, deletions: 0 });

    const approved = await curl(approve);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ approvals: [{ user: "tester" }] });

    const merged = await curl(merge);
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ number: 1, state: "merged" });
    const parents = (
      await runGit({
        cwd: bareRepoPath(data, "acme/app"),
        args: ["rev-list", "--parents", "-n", "1"],
        values: ["refs/heads/main"],
      })
    ).stdout
      .toString("latin1")
      .trim()
      .split(" ");
    expect(parents).toHaveLength(3);
    expect(parents[0]).toBe(merged.body.merge_commit);
    expect(parents[1]).toBe(mainBefore);

    const closed = await curl(close);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ number: 2, state: "closed" });
  });
});
