import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callJson, startTeamFixture, type TeamFixture, writerToken } from "./team-fixture.js";

// Removing a draft is a write (README "Drafts and delivery": writing needs knowledge:write):
// a token with knowledge:read only removes nothing — not even a draft of its own user.

let team: TeamFixture;
let writer: string;

const DRAFTS = "/api/v1/repos/acme/private/knowledge/drafts";

beforeAll(async () => {
  team = await startTeamFixture();
  writer = await writerToken(team, "anna", "acme/private");
});
afterAll(async () => {
  await team.close();
});

function call(token: string, method: string, path: string, body?: unknown) {
  return callJson(team.base, token, method, path, body);
}

describe("DELETE …/knowledge/drafts/{id}", () => {
  it("a knowledge:read token of the draft's own author (a writer) is 403 forbidden; the draft stays", async () => {
    const made = await call(writer, "POST", DRAFTS, { branch: "main", title: "Mine", body: "b" });
    expect(made.status).toBe(201);
    const refused = await call(team.tokens.anna, "DELETE", `${DRAFTS}/${made.body.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect(refused.body.error.data.missing).toBe("scope knowledge:write");
    const left = await call(writer, "GET", DRAFTS);
    expect(left.body.items.map((d: { id: string }) => d.id)).toContain(made.body.id);
    // With knowledge:write it goes.
    expect((await call(writer, "DELETE", `${DRAFTS}/${made.body.id}`)).status).toBe(204);
  });

  it("a repository the token's user cannot read stays 404 repo_not_found, whatever the scopes", async () => {
    const refused = await call(
      team.tokens.vera,
      "DELETE",
      `${DRAFTS}/0193a000-0000-7000-8000-00000000000b`,
    );
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("repo_not_found");
  });
});
