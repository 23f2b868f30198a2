import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CurlAnswer, readmeCurlLines, runReadmeCurl } from "./readme-curl-lines.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The README's curl examples of "Administration over the API", run in order with real curl
// against a real `lore serve` on a fresh data folder (the convention of readme-curl.test.ts;
// `$TOKEN_ID` is the id the token example answered, `~/.ssh/id_ed25519.pub` a real key).

const KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop";
const FINGERPRINT = "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8";

let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let tokenId = "";

beforeAll(async () => {
  sandbox = isolatedEnv();
  const ssh = join(sandbox.env.HOME as string, ".ssh");
  mkdirSync(ssh, { recursive: true });
  writeFileSync(join(ssh, "id_ed25519.pub"), `${KEY}\n`);
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
});

afterAll(async () => {
  await served?.stop();
  sandbox?.cleanup();
});

function curl(line: string): Promise<CurlAnswer> {
  return runReadmeCurl(line, served.url.port, {
    LORE_TOKEN: served.token,
    TOKEN_ID: tokenId,
    HOME: sandbox.env.HOME as string,
  });
}

describe("the README's administration curl examples against a real lore serve", () => {
  it("has one example per administration endpoint, each with the token", () => {
    const lines = readmeCurlLines("curl-examples-admin");
    expect(lines).toHaveLength(24);
    for (const line of lines) expect(line).toContain("Authorization: Bearer $LORE_TOKEN");
  });

  it("run in order, each answers what the README's table says", async () => {
    const lines = readmeCurlLines("curl-examples-admin");
    const answers: CurlAnswer[] = [];
    for (const line of lines) {
      const answer = await curl(line);
      answers.push(answer);
      if (line.includes("/admin/tokens -H")) {
        tokenId = String((answer.body as { token: { id: number } }).token.id);
      }
    }
    const [
      addUser,
      users,
      addRepo,
      repos,
      addToken,
      tokens,
      addGroup,
      addMember,
      members,
      groups,
      grant,
      access,
      protect,
      rules,
      unprotect,
      addKey,
      keys,
      removeKey,
      revoke,
      removeMember,
      removeGroup,
      revokeToken,
      removeRepo,
      removeUser,
    ] = answers;
    expect(addUser).toMatchObject({ status: 201, body: { name: "anna", site_admin: false } });
    expect(((users as CurlAnswer).body as { name: string }[]).map((u) => u.name)).toEqual([
      "anna",
      "tester",
    ]);
    expect(addRepo).toMatchObject({
      status: 201,
      body: { full_name: "acme/app", default_branch: "main", public: false },
    });
    expect(repos).toMatchObject({ status: 200, body: [{ full_name: "acme/app" }] });
    expect(addToken?.status).toBe(201);
    const secret = ((addToken as CurlAnswer).body as { secret: string }).secret;
    expect(secret).toMatch(/^lore_[A-Za-z0-9_-]{43}$/);
    expect(tokens).toMatchObject({
      status: 200,
      body: [{ user: "anna", label: "laptop", scopes: ["knowledge:read", "repo:read"] }],
    });
    expect(tokens?.text).not.toContain(secret);
    expect(addGroup).toMatchObject({ status: 201, body: { name: "leads", members: [] } });
    expect(addMember?.status).toBe(204);
    expect(members).toMatchObject({ status: 200, body: { group: "leads", members: ["anna"] } });
    expect(groups).toMatchObject({ status: 200, body: [{ name: "leads", members: ["anna"] }] });
    expect(grant).toMatchObject({ status: 200, body: { subject: "group:leads", level: "write" } });
    expect(access).toMatchObject({
      status: 200,
      body: {
        repo: "acme/app",
        public: false,
        grants: [{ subject: "group:leads", level: "write" }],
      },
    });
    const rule = {
      pattern: "release/*",
      push: ["anna", "group:leads"],
      allow_force_push: false,
      required_approvals: 2,
    };
    expect(protect).toMatchObject({ status: 200, body: rule });
    expect(rules).toMatchObject({ status: 200, body: [rule] });
    expect(unprotect).toMatchObject({ status: 200, body: { removed: true } });
    expect(addKey).toMatchObject({
      status: 201,
      body: { id: 1, user: "anna", fingerprint: FINGERPRINT, comment: "anna@laptop" },
    });
    expect(keys).toMatchObject({ status: 200, body: [{ fingerprint: FINGERPRINT }] });
    expect(removeKey).toMatchObject({ status: 200, body: { id: 1, fingerprint: FINGERPRINT } });
    expect(revoke).toMatchObject({ status: 200, body: { revoked: true } });
    expect(removeMember).toMatchObject({ status: 200, body: { removed: true } });
    expect(removeGroup?.status).toBe(204);
    expect(revokeToken?.status).toBe(204);
    expect(removeRepo).toMatchObject({ status: 200, body: { full_name: "acme/app" } });
    expect(removeUser?.status).toBe(204);
    // Run again, the removals find nothing: the answers are refusals with their codes.
    expect(await curl(lines[23] as string)).toMatchObject({
      status: 404,
      body: { error: { code: "user_not_found" } },
    });
    expect(await curl(lines[22] as string)).toMatchObject({
      status: 404,
      body: { error: { code: "repo_not_found" } },
    });
  });
});
