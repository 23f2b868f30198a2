import { describe, expect, it } from "vitest";
import {
  fromWireCreatedToken,
  fromWireGroup,
  fromWireKey,
  fromWireRepo,
  fromWireRule,
  fromWireToken,
  fromWireUser,
  toWireCreatedToken,
  toWireGroup,
  toWireKey,
  toWireRepo,
  toWireRule,
  toWireToken,
  toWireUser,
} from "./admin-wire.js";

// What the routes send is what the remote administration reads back: the same records,
// field for field and in the order the database's records have them (so `--json` prints
// the same bytes in both modes).

const AT = Date.UTC(2026, 11, 1, 10, 0, 0, 123);

describe("administration records over the API and back", () => {
  it("a user, a group, a repository and a rule come back equal", () => {
    const user = { id: 3, name: "anna", siteAdmin: true, createdAt: AT };
    expect(toWireUser(user)).toEqual({
      id: 3,
      name: "anna",
      site_admin: true,
      created_at: "2026-12-01T10:00:00.123Z",
    });
    expect(fromWireUser(toWireUser(user))).toEqual(user);
    const group = { id: 1, name: "leads", createdAt: AT, members: ["anna", "boris"] };
    expect(fromWireGroup(toWireGroup(group))).toEqual(group);
    const repo = {
      id: 2,
      owner: "acme",
      name: "app",
      fullName: "acme/app",
      public: false,
      defaultBranch: "main",
      createdAt: AT,
      path: "/srv/lore/repos/acme/app.git",
    };
    expect(JSON.stringify(fromWireRepo(toWireRepo(repo)))).toBe(JSON.stringify(repo));
    const rule = {
      pattern: "release/*",
      push: ["group:leads"],
      allowForcePush: false,
      requiredApprovals: 2,
    };
    expect(JSON.stringify(fromWireRule(toWireRule(rule)))).toBe(JSON.stringify(rule));
  });

  it("a token keeps null times and never carries a hash; a key keeps its user last", () => {
    const token = {
      id: 5,
      userId: 3,
      prefix: "lore_AbC1234",
      scopes: ["knowledge:read" as const, "repo:read" as const],
      label: "ci",
      createdAt: AT,
      expiresAt: null,
      lastUsedAt: AT + 60_000,
      user: "anna",
    };
    const wire = toWireToken(token);
    expect(wire).toMatchObject({ expires_at: null, last_used_at: "2026-12-01T10:01:00.123Z" });
    expect(Object.keys(wire)).not.toContain("hash");
    expect(JSON.stringify(fromWireToken(wire))).toBe(JSON.stringify(token));
    const created = { secret: `lore_${"a".repeat(43)}`, token };
    expect(fromWireCreatedToken(toWireCreatedToken(created))).toEqual(created);
    const key = {
      id: 1,
      userId: 3,
      algorithm: "ssh-ed25519",
      publicKey: "AAAA",
      fingerprint: "SHA256:x",
      comment: "anna@laptop",
      createdAt: AT,
      user: "anna",
    };
    expect(JSON.stringify(fromWireKey(toWireKey(key)))).toBe(JSON.stringify(key));
  });
});
