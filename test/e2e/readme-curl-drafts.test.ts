import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { openServerStore } from "../../src/main/open-server.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { useTestLicence } from "../helpers/test-licence.js";
import { ROLLBACK } from "./fixture-entries.js";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Drafts and delivery", run in order with real curl against a
// real `lore serve` (the convention of readme-curl.test.ts; `$DRAFT_ID` is the id the first
// example answered).

let app: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let port = "";
let draftId = "";

beforeAll(async () => {
  sandbox = isolatedEnv();
  // The README's PUT of a draft limit needs the Max edition: a Max test licence.
  useTestLicence(sandbox.env, "max");
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

/** Runs one README line against the test server. */
function curl(line: string): Promise<CurlAnswer> {
  return runReadmeCurl(line, port, { LORE_TOKEN: served.token, DRAFT_ID: draftId });
}

describe("the README's draft curl examples against a real lore serve", () => {
  it("has one example per draft and limit endpoint, each with the token", () => {
    const lines = readmeCurlLines("curl-examples-drafts");
    expect(lines).toHaveLength(7);
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("run in order: write 201, list, deliver separate with a merge request, remove 204, the limit set, read, removed", async () => {
    const [write, list, deliver, remove, put, get, del] = readmeCurlLines(
      "curl-examples-drafts",
    ) as string[];
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
