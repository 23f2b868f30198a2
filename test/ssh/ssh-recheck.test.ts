import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePublicKeyLine, removeKey } from "../../src/services/access/ssh-keys.js";
import { removeUser } from "../../src/services/access/users.js";
import {
  type ClientRun,
  type GitTestServer,
  runProgram,
  SSH_CLIENT_OPTIONS,
  startGitServer,
  type TestUser,
} from "../helpers/git-server.js";

/**
 * A long-lived SSH connection is no lasting pass (seed 004, team server: git over SSH with
 * the same rights as over HTTP, where every request shows its token): the key and its user
 * are checked again at each exec. With OpenSSH's connection sharing (`ControlMaster`), the
 * real `git` client runs each command as a new session on one authenticated connection;
 * once the key, or its user, is removed, the next command is refused with the code.
 */
let server: GitTestServer;
const masters: ChildProcess[] = [];

beforeAll(async () => {
  server = await startGitServer();
  // Public: readable by every user, so only the key and the user decide.
  await server.createRepo("acme/app", { public: true });
});
afterAll(async () => {
  for (const master of masters) master.kill();
  await server?.close();
});

/** Opens a master connection as `user` (in the foreground, killed after) and waits for its socket. */
async function openMaster(user: TestUser): Promise<string> {
  const socket = join(server.work, `m-${user.name}`);
  const master = spawn(
    "ssh",
    [
      ...SSH_CLIENT_OPTIONS,
      "-i",
      user.keyPath,
      "-p",
      String(server.sshPort),
      "-M",
      "-S",
      socket,
      "-N",
      "git@127.0.0.1",
    ],
    { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: server.work }, stdio: "ignore" },
  );
  masters.push(master);
  const until = Date.now() + 20_000;
  while (!existsSync(socket) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(existsSync(socket)).toBe(true);
  return socket;
}

/** `git ls-remote` over the shared connection only (no new authentication). */
function lsRemote(socket: string): Promise<ClientRun> {
  return runProgram("git", ["ls-remote", server.url("acme/app", "ssh")], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: server.work,
      GIT_CONFIG_NOSYSTEM: "1",
      LC_ALL: "C",
      // The key is absent: only the master's connection can carry the command.
      GIT_SSH_COMMAND: `ssh ${SSH_CLIENT_OPTIONS.join(" ")} -i /nonexistent -o ControlMaster=no -S ${socket}`,
    },
  });
}

async function fingerprintOfUser(user: TestUser): Promise<string> {
  return parsePublicKeyLine(await readFile(`${user.keyPath}.pub`, "utf8")).fingerprint;
}

describe("an exec on an open SSH connection", () => {
  it("is refused with key_not_found once the key is removed", async () => {
    const anna = await server.addUser("anna");
    const socket = await openMaster(anna);
    const before = await lsRemote(socket);
    expect(before.code, before.stderr).toBe(0);
    const fingerprint = await fingerprintOfUser(anna);
    await removeKey(server.store, fingerprint);
    const after = await lsRemote(socket);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toContain(`lore: no SSH key ${fingerprint} [key_not_found]`);
  });

  it("is refused once the key's user is removed (their keys go with them)", async () => {
    const vera = await server.addUser("vera");
    const socket = await openMaster(vera);
    expect((await lsRemote(socket)).code).toBe(0);
    await removeUser(server.store, "vera");
    const after = await lsRemote(socket);
    expect(after.code).not.toBe(0);
    const fingerprint = await fingerprintOfUser(vera);
    expect(after.stderr).toContain(`lore: no SSH key ${fingerprint} [key_not_found]`);
  });

  it("still runs for a user whose key stays", async () => {
    const boris = await server.addUser("boris");
    const socket = await openMaster(boris);
    for (let round = 0; round < 2; round += 1) {
      const run = await lsRemote(socket);
      expect(run.code, run.stderr).toBe(0);
    }
  });
});
