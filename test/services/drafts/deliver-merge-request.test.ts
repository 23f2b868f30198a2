import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initBareRepo } from "../../../src/adapters/git-cli/init-bare.js";
import { runGit } from "../../../src/adapters/git-cli/run-git.js";
import { bareRepoPath, createRepo } from "../../../src/services/access/hosted-repos.js";
import { createToken } from "../../../src/services/access/tokens.js";
import { startTeamFixture, type TeamFixture } from "../../http/team-fixture.js";

// A separate delivery on the team server (seed 004, "Как знание выходит наружу"): its merge
// request is always opened, or nothing is written — never drafts marked delivered into a
// knowledge/ branch that has no request (they could not be delivered again).

let team: TeamFixture;
let token: string;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in the assertions.
type Json = any;

async function api(path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const answer = await fetch(`${team.base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: await answer.json() };
}

async function refs(fullName: string): Promise<string> {
  const run = await runGit({
    cwd: bareRepoPath(team.data, fullName),
    args: ["for-each-ref", "--format=%(refname)"],
  });
  return run.stdout.toString("utf8");
}

beforeAll(async () => {
  team = await startTeamFixture();
  const anna = await team.store.getUser("anna");
  for (const fullName of ["acme/public", "acme/empty"]) {
    const repo =
      fullName === "acme/empty"
        ? (
            await createRepo(
              { store: team.store, dataDir: team.data, initBare: initBareRepo },
              { fullName, public: false, now: Date.now() },
            )
          ).repo
        : await team.store.getRepo(fullName);
    await team.store.grant({
      repoId: repo?.id ?? -1,
      subject: { kind: "user", id: anna?.id ?? -1 },
      level: "write",
    });
  }
  await team.store.setDraftLimit({ kind: "user", id: anna?.id ?? -1 }, 1000);
  token = (
    await createToken(team.store, {
      user: "anna",
      scopes: ["knowledge:read", "knowledge:write", "repo:read", "repo:write"],
      now: Date.now(),
    })
  ).secret;
});
afterAll(async () => {
  await team.close();
});

const DRAFTS = "/api/v1/repos/acme/public/knowledge/drafts";

describe("POST …/drafts/deliver, mode separate", () => {
  it("450 drafts whose listing is over the 64 KiB body of a request: the request is opened, the rest named", async () => {
    const title = "about a rather long lesson title that goes on and on ".repeat(2);
    for (let i = 0; i < 450; i++) {
      const made = await api(DRAFTS, { branch: "bulk", title: `Entry ${i} ${title}`, body: "b" });
      expect(made.status).toBe(201);
    }
    const answer = await api(`${DRAFTS}/deliver`, { branch: "bulk", mode: "separate", label: "x" });
    expect(answer.status).toBe(200);
    expect(answer.body.delivered).toHaveLength(450);
    const mr = await api(`/api/v1/repos/acme/public/pulls/${answer.body.merge_request}`);
    expect(mr.body.origin).toBe("machine");
    expect(mr.body.source).toBe("knowledge/bulk-x");
    expect(Buffer.byteLength(mr.body.body, "utf8")).toBeLessThanOrEqual(64 * 1024);
    expect(mr.body.body).toMatch(/- … and \d+ more$/);
  });

  it("a branch whose knowledge/ branch name a request refuses: invalid_input, nothing written", async () => {
    const branch = "b".repeat(195);
    expect((await api(DRAFTS, { branch, title: "long", body: "b" })).status).toBe(201);
    const before = await refs("acme/public");
    const answer = await api(`${DRAFTS}/deliver`, { branch, mode: "separate", label: "z" });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("invalid_input");
    expect(await refs("acme/public")).toBe(before);
    const left = await api(`${DRAFTS}?branch=${branch}`);
    expect(left.body.items[0].delivered).toBeUndefined();
  });

  it("a repository with no default branch yet: branch_not_found, nothing written", async () => {
    const drafts = "/api/v1/repos/acme/empty/knowledge/drafts";
    expect((await api(drafts, { branch: "main", title: "e", body: "b" })).status).toBe(201);
    const answer = await api(`${drafts}/deliver`, { branch: "main", mode: "separate", label: "e" });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe("branch_not_found");
    expect(answer.body.error.data.branch).toBe("main");
    expect(await refs("acme/empty")).toBe("");
    expect((await api(drafts)).body.items[0].delivered).toBeUndefined();
  });
});
