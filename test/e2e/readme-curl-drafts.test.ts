import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { ROLLBACK } from "./fixture-entries.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Drafts and delivery", run in order with real curl against a
// real `lore serve` (the convention of readme-curl.test.ts; `$DRAFT_ID` is the id the first
// example answered).

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"),
  "utf8",
);
const run = promisify(execFile);

function curlExamples(): string[] {
  const block = /<!-- curl-examples-drafts[^>]*-->\n```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
  return block.split("\n").filter((line) => line.startsWith("curl "));
}

let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let port = "";
let draftId = "";

beforeAll(async () => {
  sandbox = isolatedEnv();
  const data = join(sandbox.dir, "data", "lore", "server");
  const store = await openServerStore(data);
  await createRepo(
    { store, dataDir: data, initBare: initBareRepo },
    { fullName: "acme/app", now: Date.now() },
  );
  await store.close();
  app = await makeRepo({ ".gitriver/knowledge/deploy-rollback.md": ROLLBACK });
  await runGit({
    cwd: app.dir,
    args: ["push", "-q"],
    values: [bareRepoPath(data, "acme/app"), "HEAD:refs/heads/main"],
  });
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  port = served.url.port;
  const added = await runLore(["user", "add", "anna"], { cwd: sandbox.dir, env: sandbox.env });
  expect(added.code).toBe(0);
});

afterAll(async () => {
  await served?.stop();
  await app?.cleanup();
  sandbox?.cleanup();
});

async function curl(line: string): Promise<{ status: number; body: unknown }> {
  const command = `${line.replaceAll("127.0.0.1:7377", `127.0.0.1:${port}`)} -w '\\n%{http_code}'`;
  const { stdout } = await run("sh", ["-c", command], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LORE_TOKEN: served.token, DRAFT_ID: draftId },
  });
  const at = stdout.lastIndexOf("\n");
  const text = stdout.slice(0, at);
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(stdout.slice(at + 1)), body };
}

describe("the README's draft curl examples against a real lore serve", () => {
  it("has one example per draft and limit endpoint, each with the token", () => {
    const lines = curlExamples();
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("run in order: write 201, list, deliver separate with a merge request, remove 204, the limit set, read, removed", async () => {
    const [write, list, deliver, remove, put, get, del] = curlExamples() as string[];
    const written = await curl(write as string);
    expect(written.status).toBe(201);
    const draft = written.body as { id: string; branch: string; author: string };
    expect(draft).toMatchObject({ branch: "main", author: "tester" });
    draftId = draft.id;
    const listed = await curl(list as string);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ items: [{ id: draftId }], next_cursor: null });
    const delivered = await curl(deliver as string);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({
      branch: "knowledge/main-sqlx",
      delivered: [draftId],
      merge_request: 1,
    });
    expect((await curl(remove as string)).status).toBe(204);
    const set = await curl(put as string);
    expect(set).toMatchObject({ status: 200, body: { kind: "user", name: "anna", limit: 500 } });
    expect(await curl(get as string)).toMatchObject({ status: 200, body: { limit: 500 } });
    expect((await curl(del as string)).status).toBe(204);
    const gone = await curl(get as string);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: { code: "limit_not_found" } });
  });
});
