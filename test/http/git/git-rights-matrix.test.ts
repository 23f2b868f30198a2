import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type GitTestServer,
  startGitServer,
  type TestUser,
  type Via,
} from "../../helpers/git-server.js";

/**
 * Three users, three repositories (seed 004, team server: rights): acme/public is public
 * (boris may write), acme/private is readable by anna only, acme/secret by none of them.
 * Over HTTP and SSH, with the real git client: what each user gets for a fetch (clone) and a
 * push, and that the third repository answers exactly as a missing one.
 */
let server: GitTestServer;
const users: Record<string, TestUser> = {};

beforeAll(async () => {
  server = await startGitServer();
  const root = await server.addUser("root", { siteAdmin: true });
  for (const name of ["anna", "boris", "vera"]) users[name] = await server.addUser(name);
  await server.createRepo("acme/public", { public: true });
  await server.createRepo("acme/private");
  await server.createRepo("acme/secret");
  await server.grant("boris", "acme/public", "write");
  await server.grant("anna", "acme/private", "read");
  const seed = join(server.work, "seed");
  await server.git(["init", "-q", "-b", "main", seed], {});
  await server.git(["-C", seed, "commit", "-q", "--allow-empty", "-m", "first"], {});
  for (const repo of ["acme/public", "acme/private", "acme/secret"]) {
    const pushed = await server.git(["-C", seed, "push", "-q", server.url(repo, "http"), "main"], {
      user: root,
    });
    expect(pushed.code, pushed.stderr).toBe(0);
  }
});
afterAll(() => server.close());

type Outcome = "ok" | "404" | "403";

const FETCH: Record<string, Record<string, Outcome>> = {
  "acme/public": { anna: "ok", boris: "ok", vera: "ok" },
  "acme/private": { anna: "ok", boris: "404", vera: "404" },
  "acme/secret": { anna: "404", boris: "404", vera: "404" },
};
const PUSH: Record<string, Record<string, Outcome>> = {
  "acme/public": { anna: "403", boris: "ok", vera: "403" },
  "acme/private": { anna: "403", boris: "404", vera: "404" },
  "acme/secret": { anna: "404", boris: "404", vera: "404" },
};

function outcomeOf(code: number, stderr: string): Outcome | string {
  if (code === 0) return "ok";
  if (/\[repo_not_found\]/.test(stderr)) return "404";
  if (/\[forbidden\]/.test(stderr)) return "403";
  return `exit ${code}: ${stderr}`;
}

describe.each(["http", "ssh"] as Via[])("git over %s", (via) => {
  it("fetch: each user gets what their rights give, nothing of the third repository", async () => {
    const got: Record<string, Record<string, Outcome | string>> = {};
    for (const repo of Object.keys(FETCH)) {
      got[repo] = {};
      for (const name of ["anna", "boris", "vera"]) {
        const dir = join(server.work, `clone-${via}-${repo.replace("/", "-")}-${name}`);
        const run = await server.git(["clone", "-q", server.url(repo, via), dir], {
          user: users[name],
          via,
        });
        (got[repo] as Record<string, string>)[name] = outcomeOf(run.code, run.stderr);
      }
    }
    expect(got).toEqual(FETCH);
  });

  it("push: write needed; read-only users get 403, hidden repositories 404", async () => {
    const got: Record<string, Record<string, Outcome | string>> = {};
    const src = join(server.work, `push-src-${via}`);
    await server.git(["init", "-q", "-b", "main", src], {});
    await server.git(["-C", src, "commit", "-q", "--allow-empty", "-m", "work"], {});
    for (const repo of Object.keys(PUSH)) {
      got[repo] = {};
      for (const name of ["anna", "boris", "vera"]) {
        const run = await server.git(
          ["-C", src, "push", "-q", server.url(repo, via), `main:refs/heads/${via}-${name}`],
          { user: users[name], via },
        );
        (got[repo] as Record<string, string>)[name] = outcomeOf(run.code, run.stderr);
      }
    }
    expect(got).toEqual(PUSH);
    // What was refused did not land: the only new branch of acme/public is boris's.
    const refs = await server.git(["ls-remote", "--heads", server.url("acme/public", "http")], {
      user: users.anna,
    });
    const heads = refs.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t")[1])
      .filter((ref) => ref?.startsWith(`refs/heads/${via}-`));
    expect(heads).toEqual([`refs/heads/${via}-boris`]);
  });

  it("a repository the user cannot read answers exactly as a missing one", async () => {
    const vera = users.vera as TestUser;
    for (const hidden of ["acme/secret", "acme/private"]) {
      const a = await server.git(["ls-remote", server.url(hidden, via)], { user: vera, via });
      const b = await server.git(["ls-remote", server.url("acme/nothere", via)], {
        user: vera,
        via,
      });
      expect(a.code).not.toBe(0);
      expect(a.stderr.replaceAll(hidden, "acme/nothere")).toBe(b.stderr);
      expect(a.code).toBe(b.code);
    }
  });
});
