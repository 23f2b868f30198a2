import { existsSync } from "node:fs";
import { chmod, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAIL_CLOSED_LINE, PROTECTED_MARKER } from "../../../src/core/push/hook-script.js";
import { createLocalAdmin } from "../../../src/main/local-admin.js";
import type { AdminPort } from "../../../src/ports/admin-port.js";
import { installHooks } from "../../../src/services/push/install-hooks.js";
import { type GitTestServer, startGitServer, type TestUser } from "../../helpers/git-server.js";
import { CLI, remoteLines } from "../../helpers/hosted-push.js";

/**
 * Branch protection fails closed (seed 004, "Разбор при отправке": protection is the only
 * refusal, and the rules are never skipped): when Lore's pre-receive cannot run — the node
 * it was written with is gone, or its process fails — a push into a repository with
 * protection rules is refused with `[branch_protected]`, while one into a repository
 * without rules still goes through (a failed parse never refuses). Real git over HTTP and
 * SSH, the hooks `lore hook install` writes, the marker kept by the administration.
 */
let server: GitTestServer;
let anna: TestUser;
let admin: AdminPort;
/** The `node` the hooks were written with: a link to this node, removed or replaced by tests. */
let nodeLink: string;

beforeAll(async () => {
  server = await startGitServer({
    afterCreate: async (dir) => {
      // <data>/repos/<owner>/<name>.git
      const data = resolve(dir, "..", "..", "..");
      await installHooks(dir, {
        node: nodeLink,
        main: CLI,
        database: join(data, "..", "index.db"),
        data,
        config: null,
      });
    },
  });
  nodeLink = join(server.work, "bin", "node");
  await mkdir(dirname(nodeLink), { recursive: true });
  anna = await server.addUser("anna");
  for (const repo of ["acme/guarded", "acme/open"]) {
    await server.createRepo(repo);
    await server.grant("anna", repo, "write");
  }
  admin = createLocalAdmin({ store: server.store, dataDir: server.dataDir });
  await admin.protectBranch({
    repo: "acme/guarded",
    pattern: "main",
    push: [],
    allowForcePush: false,
    requiredApprovals: 0,
  });
});
afterAll(async () => {
  await server?.close();
});

/** The node link: the real node, a stand-in that fails, or nothing. */
async function nodeIs(kind: "real" | "failing" | "missing"): Promise<void> {
  await rm(nodeLink, { force: true });
  if (kind === "real") await symlink(process.execPath, nodeLink);
  if (kind === "failing") {
    await writeFile(nodeLink, "#!/bin/sh\ncat >/dev/null\necho 'hook crashed' >&2\nexit 3\n");
    await chmod(nodeLink, 0o755);
  }
}

let round = 0;
/** Commits once more in a fresh clone-like repository and pushes main to `repo`. */
async function pushTo(
  repo: string,
  via: "http" | "ssh",
  env: Record<string, string> = {},
): Promise<{ code: number; remote: string[] }> {
  round += 1;
  const src = join(server.work, `src-${round}`);
  await server.git(["init", "-q", "-b", "main", src], {});
  const fetched = await server.git(["-C", src, "pull", "-q", server.url(repo, via), "main"], {
    user: anna,
    via,
  });
  // The first push into an empty repository has nothing to pull.
  void fetched;
  await server.git(["-C", src, "commit", "-q", "--allow-empty", "-m", `round ${round}`], {});
  const pushed = await server.git(["-C", src, "push", server.url(repo, via), "main"], {
    user: anna,
    via,
    env,
  });
  return { code: pushed.code, remote: remoteLines(pushed.stderr) };
}

beforeEach(async () => {
  await nodeIs("real");
});

describe("the protection marker", () => {
  it("is written by protect and removed with the last rule", async () => {
    const guarded = join(server.dataDir, "repos", "acme", "guarded.git", PROTECTED_MARKER);
    const open = join(server.dataDir, "repos", "acme", "open.git", PROTECTED_MARKER);
    expect(existsSync(guarded)).toBe(true);
    expect(existsSync(open)).toBe(false);
    await admin.protectBranch({
      repo: "acme/open",
      pattern: "main",
      push: [],
      allowForcePush: false,
      requiredApprovals: 0,
    });
    await admin.protectBranch({
      repo: "acme/open",
      pattern: "rel/*",
      push: [],
      allowForcePush: true,
      requiredApprovals: 0,
    });
    expect(existsSync(open)).toBe(true);
    await admin.unprotectBranch({ repo: "acme/open", pattern: "main" });
    expect(existsSync(open)).toBe(true);
    await admin.unprotectBranch({ repo: "acme/open", pattern: "rel/*" });
    expect(existsSync(open)).toBe(false);
  });
});

describe.each(["http", "ssh"] as const)("a push over %s", (via) => {
  it("with Lore's hook working: goes through into both repositories", async () => {
    for (const repo of ["acme/guarded", "acme/open"]) {
      const pushed = await pushTo(repo, via);
      expect(pushed.code, pushed.remote.join("\n")).toBe(0);
    }
  });

  it("with node gone: refused into the protected repository, accepted into the other", async () => {
    await nodeIs("missing");
    const refused = await pushTo("acme/guarded", via);
    expect(refused.code).not.toBe(0);
    expect(refused.remote).toContain(FAIL_CLOSED_LINE.en);
    const accepted = await pushTo("acme/open", via);
    expect(accepted.code, accepted.remote.join("\n")).toBe(0);
    expect(accepted.remote).toContain(
      "lore: pre-receive: node or Lore is not at the path this hook was written with; the push is accepted without the parse (run lore hook install again)",
    );
  });

  it("with the hook process failing: refused into the protected repository only", async () => {
    await nodeIs("failing");
    const refused = await pushTo("acme/guarded", via);
    expect(refused.code).not.toBe(0);
    expect(refused.remote).toEqual(["hook crashed", FAIL_CLOSED_LINE.en]);
    const accepted = await pushTo("acme/open", via);
    expect(accepted.code, accepted.remote.join("\n")).toBe(0);
  });
});

describe("the refusal", () => {
  it("is in the pusher's language (Accept-Language from git's locale)", async () => {
    await nodeIs("missing");
    const refused = await pushTo("acme/guarded", "http", { LANGUAGE: "ru" });
    expect(refused.code).not.toBe(0);
    expect(refused.remote).toContain(FAIL_CLOSED_LINE.ru);
  });

  it("stops once the last rule is removed", async () => {
    await admin.unprotectBranch({ repo: "acme/guarded", pattern: "main" });
    await nodeIs("missing");
    const accepted = await pushTo("acme/guarded", "http");
    expect(accepted.code, accepted.remote.join("\n")).toBe(0);
  });
});
