import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fingerprintOf } from "../../src/services/access/ssh-keys.js";
import {
  type ClientRun,
  type GitTestServer,
  runProgram,
  SSH_CLIENT_OPTIONS,
  startGitServer,
  type TestUser,
} from "../helpers/git-server.js";

/**
 * Git over SSH at the door (seed 004, team server; git over SSH): public keys only, exec of
 * git-upload-pack / git-receive-pack of one repository only — a shell, `sh`, `ls`, an option,
 * a subsystem, port forwarding all refused with a message and exit status 1 — GIT_PROTOCOL
 * honoured, a closed channel and the time limit stop git, the server alive throughout.
 */
let server: GitTestServer;
let anna: TestUser;

function sshArgs(target: GitTestServer, key: string, extra: string[] = []): string[] {
  return [
    ...SSH_CLIENT_OPTIONS,
    "-i",
    key,
    "-p",
    String(target.sshPort),
    ...extra,
    "git@127.0.0.1",
  ];
}

/** Runs the real ssh client once (stdin closed). */
function ssh(key: string, command: string[], extra: string[] = []): Promise<ClientRun> {
  return runProgram("ssh", [...sshArgs(server, key, extra), ...command], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: server.work },
  });
}

async function settled(target: GitTestServer): Promise<{ running: number; queued: number }> {
  const until = Date.now() + 20_000;
  while (target.services.load().running > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return target.services.load();
}

const REFUSED = (command: string) =>
  "lore: this SSH server runs git-upload-pack and git-receive-pack of one repository only " +
  `(e.g. git clone ssh://git@HOST:PORT/OWNER/NAME.git); refused: ${command} [ssh_command_refused]\n`;

beforeAll(async () => {
  server = await startGitServer();
  anna = await server.addUser("anna");
  await server.createRepo("acme/app");
  await server.grant("anna", "acme/app", "write");
  const seed = join(server.work, "seed");
  await server.git(["init", "-q", "-b", "main", seed], {});
  await server.git(["-C", seed, "commit", "-q", "--allow-empty", "-m", "first"], {});
  const pushed = await server.git(
    ["-C", seed, "push", "-q", server.url("acme/app", "ssh"), "main"],
    {
      user: anna,
      via: "ssh",
    },
  );
  expect(pushed.code, pushed.stderr).toBe(0);
});
afterAll(() => server.close());

describe("the host key", () => {
  it("is made on first start in the data folder, mode 0600, Ed25519", async () => {
    const path = join(server.dataDir, "ssh_host_ed25519_key");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, "utf8")).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----/);
    const scan = await runProgram(
      "ssh-keyscan",
      ["-p", String(server.sshPort), "-t", "ed25519", "127.0.0.1"],
      {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      },
    );
    expect(scan.stdout).toMatch(/ssh-ed25519 AAAA/);
  });
});

describe("authentication", () => {
  it("an unknown key is refused", async () => {
    const stranger = join(server.work, "stranger");
    await runProgram("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", stranger], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const run = await ssh(stranger, ["git-upload-pack '/acme/app.git'"]);
    expect(run.code).toBe(255);
    expect(run.stderr).toContain("Permission denied (publickey)");
    const clone = await server.git(
      ["clone", server.url("acme/app", "ssh"), join(server.work, "x")],
      {
        user: { ...anna, keyPath: stranger },
        via: "ssh",
      },
    );
    expect(clone.code).not.toBe(0);
  });

  it("a 1024-bit RSA key stored before the size rule does not log in; a 3072-bit one does", async () => {
    const made: Record<string, string> = {};
    for (const bits of ["1024", "3072"]) {
      const file = join(server.work, `rsa${bits}`);
      const run = await runProgram(
        "ssh-keygen",
        ["-q", "-t", "rsa", "-b", bits, "-N", "", "-f", file],
        { env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
      );
      expect(run.code, run.stderr).toBe(0);
      const [algorithm = "", publicKey = ""] = (await readFile(`${file}.pub`, "utf8")).split(" ");
      const user = await server.store.getUser("anna");
      // Straight into the store, as a key added before `lore key add` checked the size.
      await server.store.addKey({
        userId: user?.id ?? 0,
        algorithm,
        publicKey,
        fingerprint: fingerprintOf(Buffer.from(publicKey, "base64")),
        comment: `rsa${bits}`,
        createdAt: 1,
      });
      made[bits] = file;
    }
    const weak = await ssh(made["1024"] ?? "", ["git-upload-pack '/acme/app.git'"]);
    expect(weak.code).toBe(255);
    expect(weak.stderr).toContain("Permission denied (publickey)");
    const strong = await ssh(made["3072"] ?? "", ["git-upload-pack '/acme/app.git'"]);
    expect(strong.stdout).toContain("refs/heads/main");
  });

  it("only public keys: a password is never asked", async () => {
    const run = await ssh(
      anna.keyPath,
      ["ls"],
      ["-o", "PreferredAuthentications=password,keyboard-interactive"],
    );
    expect(run.code).toBe(255);
    expect(run.stderr).toContain("Permission denied (publickey)");
  });
});

describe("commands", () => {
  it("exec of sh, ls, an option or two commands: refused on stderr, exit status 1", async () => {
    for (const command of [
      "sh",
      "ls -la",
      "git-upload-pack --help",
      "git-upload-pack '/acme/app.git'; sh",
      "git-receive-pack '/acme/app.git' && sh",
      "git-upload-archive '/acme/app.git'",
    ]) {
      const run = await ssh(anna.keyPath, [command]);
      expect({ command, code: run.code, stderr: run.stderr, stdout: run.stdout }).toEqual({
        command,
        code: 1,
        stderr: REFUSED(command),
        stdout: "",
      });
    }
  });

  it("a shell (no command) is refused, no pty", async () => {
    const run = await ssh(anna.keyPath, []);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 1,
      stderr: REFUSED("(a shell)"),
    });
    const tty = await ssh(anna.keyPath, [], ["-tt"]);
    expect(tty.code).not.toBe(0);
    expect(tty.stderr).toContain("PTY allocation request failed");
  });

  it("a subsystem (sftp) and port forwarding are refused", async () => {
    const sftp = await ssh(anna.keyPath, ["-s", "sftp"]);
    expect(sftp.code).not.toBe(0);
    const forward = await ssh(anna.keyPath, [], ["-W", `127.0.0.1:${server.httpPort}`]);
    expect(forward.code).not.toBe(0);
    expect(forward.stderr).toMatch(
      /stdio forwarding failed|open failed|administratively prohibited/,
    );
    // The server is alive after all of it.
    expect((await ssh(anna.keyPath, ["sh"])).code).toBe(1);
  });

  it("`..` and a leading - in the path are refused before git runs", async () => {
    const dots = await ssh(anna.keyPath, ["git-upload-pack '/acme/../acme/app.git'"]);
    expect(dots.code).toBe(1);
    expect(dots.stderr).toContain("[ssh_command_refused]");
    const dash = await ssh(anna.keyPath, ["git-upload-pack '/acme/-app.git'"]);
    expect(dash.code).toBe(1);
    expect(dash.stderr).toMatch(/^lore: acme\/-app .*\[invalid_repo_name\]\n$/);
  });

  it("GIT_PROTOCOL is honoured: version=2 gets the v2 capability advertisement", async () => {
    const v2 = await ssh(
      anna.keyPath,
      ["git-upload-pack '/acme/app.git'"],
      ["-o", "SetEnv=GIT_PROTOCOL=version=2"],
    );
    expect(v2.stdout).toMatch(/^000eversion 2\n/);
    const v0 = await ssh(anna.keyPath, ["git-upload-pack '/acme/app.git'"]);
    expect(v0.stdout).toMatch(/^[0-9a-f]{4}[0-9a-f]{40} HEAD\0/);
  });
});

describe("processes", () => {
  it("a closed channel kills git; the server goes on", async () => {
    const child = spawn(
      "ssh",
      [...sshArgs(server, anna.keyPath), "git-receive-pack '/acme/app.git'"],
      {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: server.work },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const advertised = new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    await advertised;
    expect(server.services.load().running).toBe(1);
    child.kill("SIGKILL");
    expect(await settled(server)).toEqual({ running: 0, queued: 0 });
    const clone = await server.git(
      ["clone", "-q", server.url("acme/app", "ssh"), join(server.work, "after")],
      {
        user: anna,
        via: "ssh",
      },
    );
    expect(clone.code, clone.stderr).toBe(0);
  });

  it("the time limit stops git with a message and exit status 1", async () => {
    const slow = await startGitServer({ limits: { timeoutMs: 1500 } });
    try {
      const user = await slow.addUser("anna");
      await slow.createRepo("acme/app");
      await slow.grant("anna", "acme/app", "write");
      // receive-pack waits for the client's commands, which never come (stdin left open).
      const child = spawn(
        "ssh",
        [...sshArgs(slow, user.keyPath), "git-receive-pack '/acme/app.git'"],
        {
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: slow.work },
          stdio: ["pipe", "pipe", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(stderr).toContain("git ran past the server's time limit and was stopped (git_failed)");
      expect(await settled(slow)).toEqual({ running: 0, queued: 0 });
    } finally {
      await slow.close();
    }
  });
});
