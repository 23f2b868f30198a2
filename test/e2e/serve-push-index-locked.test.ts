import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, ID_A, K } from "../helpers/push-entries.js";
import { gitClientEnv, runGitClient } from "./git-client.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

/**
 * A push to `lore serve` while another process holds the index's write lock (seed 004,
 * "Разбор при отправке": the push always goes through; the index heals on the next read):
 * the server's index update gives up after `PUSH_LOCK_WAIT_MS` instead of waiting for the
 * lock holder, logs it, and the pusher's `git push` returns; once the lock is released, a
 * read brings the index up to the push.
 */
let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let gitEnv: Record<string, string>;

beforeAll(async () => {
  home = isolatedEnv();
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
  const created = await runLore(["repo", "create", "acme/app"], { cwd: home.dir, env: home.env });
  expect(created.code, created.stderr).toBe(0);
  mkdirSync(home.env.HOME ?? "", { recursive: true });
  gitEnv = gitClientEnv(home);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

const base = () => `${served.url.protocol}//${served.url.host}`;
const basic = () =>
  `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${served.token}`).toString("base64")}`;

describe("lore serve: a push while the index is locked by another process", () => {
  it("returns without waiting for the lock holder; the next read indexes the push", async () => {
    const work = join(home.dir, "work");
    const clone = await runGitClient(
      ["-c", basic(), "clone", `${base()}/acme/app.git`, work],
      home.dir,
      gitEnv,
    );
    expect(clone.code, clone.stderr).toBe(0);
    mkdirSync(join(work, K), { recursive: true });
    writeFileSync(join(work, K, "a.md"), entry(ID_A, "Deploy with the blue-green switch."));
    await runGitClient(["add", "-A"], work, gitEnv);
    await runGitClient(["commit", "-qm", "knowledge"], work, gitEnv);
    // Another process's writer: it would hold the lock for 120 s (the test's own limit is
    // 60 s), and is released by the test once the push has returned.
    const holder = new Database(home.env.LORE_DB ?? "");
    holder.exec("BEGIN EXCLUSIVE");
    let push: Awaited<ReturnType<typeof runGitClient>>;
    try {
      push = await runGitClient(["-c", basic(), "push", "origin", "HEAD:main"], work, gitEnv);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    expect(push.code, push.stderr).toBe(0);
    expect(served.stderr()).toMatch(
      /lore: acme\/app: the index update after a push failed: .*the index's write lock stayed taken for 3 s/,
    );
    // The read heals the index first: the pushed entry is listed.
    const answer = await fetch(`${base()}/api/v1/repos/acme/app/knowledge`, {
      headers: served.headers,
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { items: { path: string }[] };
    expect(body.items.map((item) => item.path)).toEqual([`${K}/a.md`]);
  }, 60_000);
});
