import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { callJson, startTeamFixture, type TeamFixture, writerToken } from "./team-fixture.js";

// Closing a merge request is a write (README "Merge requests": the author or anyone with
// write access): a token without repo:write closes nothing, not even its user's request.

let team: TeamFixture;
let writer: string;

const PULLS = "/api/v1/repos/acme/private/pulls";

beforeAll(async () => {
  team = await startTeamFixture();
  writer = await writerToken(team, "anna", "acme/private");
  await runGit({
    cwd: bareRepoPath(team.data, "acme/private"),
    args: ["branch"],
    values: ["feature/x", "main"],
  });
});
afterAll(async () => {
  await team.close();
});

function call(token: string, method: string, path: string, body?: unknown) {
  return callJson(team.base, token, method, path, body);
}

describe("POST …/pulls/{number}/close", () => {
  it("its author's token without repo:write is 403 forbidden; the request stays open", async () => {
    const opened = await call(writer, "POST", PULLS, { source: "feature/x", title: "X" });
    expect(opened.status).toBe(201);
    const number = opened.body.number;
    // team.tokens.anna: knowledge:read and repo:read only.
    const refused = await call(team.tokens.anna, "POST", `${PULLS}/${number}/close`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(refused.body.error.data.missing).toBe("scope repo:write");
    expect((await call(writer, "GET", `${PULLS}/${number}`)).body.state).toBe("open");
    const closed = await call(writer, "POST", `${PULLS}/${number}/close`);
    expect(closed.body.state).toBe("closed");
  });
});
