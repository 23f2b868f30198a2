import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitTestServer, startGitServer, type TestUser } from "../../helpers/git-server.js";

/**
 * The environment git's hooks see when a push comes over HTTP or SSH (seed 004, team
 * server: «the transport sets LORE_PUSHER»; every git child process: an isolated
 * environment): `LORE_PUSHER` is the pushing user, nothing of the server's own environment
 * leaks in (no `GIT_*`, no other variable), `HOME` is Lore's folder, not the user's.
 */
let server: GitTestServer;
let anna: TestUser;
let hookOut: string;
const LEAK = "LORE_TEST_SHOULD_NOT_LEAK";

beforeAll(async () => {
  process.env[LEAK] = "1";
  process.env.GIT_TEST_PARENT_VARIABLE = "1";
  server = await startGitServer();
  anna = await server.addUser("anna");
  const dir = await server.createRepo("acme/app");
  await server.grant("anna", "acme/app", "write");
  hookOut = join(server.work, "hook-env");
  const hook = join(dir, "hooks", "pre-receive");
  await writeFile(hook, `#!/bin/sh\ncat >/dev/null\nenv > "${hookOut}-last"\n`);
  await chmod(hook, 0o755);
});
afterAll(async () => {
  delete process.env[LEAK];
  delete process.env.GIT_TEST_PARENT_VARIABLE;
  await server.close();
});

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

describe.each(["http", "ssh"] as const)("a push over %s", (via) => {
  it("runs the hooks with LORE_PUSHER and an isolated environment", async () => {
    const src = join(server.work, `src-${via}`);
    await server.git(["init", "-q", "-b", "main", src], {});
    await server.git(["-C", src, "commit", "-q", "--allow-empty", "-m", via], {});
    const push = await server.git(
      ["-C", src, "push", "-q", server.url("acme/app", via), `main:refs/heads/${via}`],
      { user: anna, via },
    );
    expect(push.code, push.stderr).toBe(0);
    const env = parseEnv(await readFile(`${hookOut}-last`, "utf8"));
    expect(env.LORE_PUSHER).toBe("anna");
    expect(env[LEAK]).toBeUndefined();
    expect(env.GIT_TEST_PARENT_VARIABLE).toBeUndefined();
    expect(env.HOME).not.toBe(process.env.HOME);
    expect(env.GIT_CONFIG_NOSYSTEM).toBe("1");
    // git's own hook variables are there (the hook runs in the repository, quarantined).
    expect(env.GIT_DIR).toBeDefined();
  });
});
