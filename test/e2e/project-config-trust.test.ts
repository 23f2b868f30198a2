/**
 * A cloned repository's `lore.toml` cannot redirect the user's credentials or open the
 * server, through the real CLI: `lore sync` sends the Gitea token only to the forge of the
 * user's own file (a second HTTP server named by the project file never hears from it),
 * `lore serve` never listens on 0.0.0.0 because a project file says so, each ignored key
 * is said on stderr, `lore doctor` shows where each key came from, and `lore trust` /
 * `lore untrust` change that.
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../helpers/fake-gitea.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";

let sandbox: ReturnType<typeof isolatedEnv>;
let gitea: FakeGitea;
let trap: Server;
let trapUrl: string;
const heard: { url: string; authorization: string | undefined }[] = [];
let clone: string;

beforeAll(async () => {
  sandbox = isolatedEnv();
  gitea = await startFakeGitea({ user: "anna" });
  await gitea.addRepo("web", {
    ".tasks/STATUS.md": "| slug | status | next |\n| --- | --- | --- |\n",
  });
  // The second server: whatever reaches it is recorded, token included.
  trap = createServer((req: IncomingMessage, res) => {
    heard.push({ url: req.url ?? "", authorization: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end("[]");
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
  const configDir = join(sandbox.env.XDG_CONFIG_HOME as string, "lore");
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, "lore.toml"),
    [
      "[forge]",
      'kind = "gitea"',
      `url = "${gitea.url}"`,
      'user = "anna"',
      "[projects]",
      `cache = '${join(sandbox.dir, "cache.json")}'`,
      "",
    ].join("\n"),
  );
  const auth = join(configDir, "auth.toml");
  writeFileSync(auth, `[gitea]\ntoken = "${gitea.token}"\n`);
  chmodSync(auth, 0o600);
  clone = join(sandbox.dir, "cloned-repo");
  mkdirSync(clone, { recursive: true });
  writeFileSync(
    join(clone, "lore.toml"),
    [
      "[forge]",
      'kind = "gitea"',
      `url = "${trapUrl}"`,
      "[server]",
      'host = "0.0.0.0"',
      "port = 0",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await gitea?.close();
  await new Promise<void>((resolve) => trap?.close(() => resolve()));
  sandbox?.cleanup();
});

describe("a cloned repository's lore.toml", () => {
  it("lore sync: the token goes to the user's forge only; the project's [forge] url hears nothing", async () => {
    const run = await runLore(["sync", "--json"], { cwd: clone, env: sandbox.env });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ synced_from: gitea.url, projects: 1 });
    expect(heard).toEqual([]);
    expect(gitea.requests.length).toBeGreaterThan(0);
    expect(run.stderr).toContain(
      `lore: ${join(clone, "lore.toml")} sets server.host, server.port, forge.kind, forge.url, which a project file may set only in a trusted folder; ignored (to use them: lore trust ${clone}) [project_config_untrusted]`,
    );
  });

  it("lore serve: listens on 127.0.0.1, never on 0.0.0.0 from the project file", async () => {
    const child = spawn(process.execPath, [LORE_BIN, "serve", "--ssh-port", "0", "--port", "0"], {
      cwd: clone,
      env: sandbox.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const listening = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const match = /serving MCP over HTTP at (\S+)/.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      child.on("exit", (code) => reject(new Error(`lore serve exited ${code}: ${stderr}`)));
    });
    child.kill("SIGTERM");
    expect(listening).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(stderr).toContain("sets server.host");
    expect(stderr).toContain("[project_config_untrusted]");
  });

  it("lore doctor shows which file each key came from and what was ignored", async () => {
    const run = await runLore(["doctor", "--json"], { cwd: clone, env: sandbox.env });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      files: { kind: string; file: string; trusted: boolean }[];
      keys: { key: string; value: unknown; from: string; ignored?: true }[];
      findings: { code: string }[];
    };
    const userFile = join(sandbox.env.XDG_CONFIG_HOME as string, "lore", "lore.toml");
    expect(report.files).toEqual([
      { kind: "user", file: userFile, trusted: true },
      { kind: "project", file: join(clone, "lore.toml"), trusted: false },
    ]);
    expect(report.keys.find((k) => k.key === "forge.url" && !k.ignored)).toEqual({
      key: "forge.url",
      value: gitea.url,
      from: userFile,
    });
    // The value the project file sets, shown as set (not `null`), marked ignored.
    expect(report.keys.find((k) => k.key === "forge.url" && k.ignored)).toEqual({
      key: "forge.url",
      value: trapUrl,
      from: join(clone, "lore.toml"),
      ignored: true,
    });
    expect(report.keys.find((k) => k.key === "index.database")?.from).toBe("env LORE_DB");
    expect(report.keys.find((k) => k.key === "server.host")).toEqual({
      key: "server.host",
      value: "127.0.0.1",
      from: "default",
    });
    expect(report.findings.map((f) => f.code)).toContain("project_config_untrusted");
    const text = await runLore(["doctor"], { cwd: clone, env: sandbox.env });
    expect(text.stdout).toContain(`key: forge.url = "${gitea.url}" (from ${userFile})`);
    expect(text.stdout).toContain(
      `key: server.host = "0.0.0.0" (ignored, from ${join(clone, "lore.toml")})`,
    );
    expect(text.stdout).toContain(
      `file: ${join(clone, "lore.toml")} (project, not trusted: lang, index.repos and mcp.tool_names only)`,
    );
  });

  it("lore trust makes the file count; lore untrust undoes it; --list shows it", async () => {
    const trust = await runLore(["trust"], { cwd: clone, env: sandbox.env });
    expect([trust.code, trust.stdout]).toEqual([0, `trusted: ${clone}\n`]);
    const list = await runLore(["trust", "--list"], { cwd: sandbox.dir, env: sandbox.env });
    expect(list.stdout).toBe(`${clone}\n`);
    const doctor = await runLore(["doctor", "--json"], { cwd: clone, env: sandbox.env });
    const keys = (JSON.parse(doctor.stdout) as { keys: { key: string; value: unknown }[] }).keys;
    expect(keys.find((k) => k.key === "server.host")?.value).toBe("0.0.0.0");
    expect(doctor.stderr).not.toContain("[project_config_untrusted]");
    const untrust = await runLore(["untrust", clone], { cwd: sandbox.dir, env: sandbox.env });
    expect([untrust.code, untrust.stdout]).toEqual([0, `untrusted: ${clone}\n`]);
    const after = await runLore(["trust", "--list"], { cwd: sandbox.dir, env: sandbox.env });
    expect(after.stdout).toBe("");
  });

  it.skipIf(!existsSync("/proc/self/mem"))(
    "an unreadable user file: lore doctor says so (exit 2), never 'no problem found'",
    async () => {
      const env = { ...sandbox.env, LORE_CONFIG: "/proc/self/mem" };
      const run = await runLore(["doctor"], { cwd: clone, env });
      expect(run.code).toBe(2);
      expect(run.stdout).toContain(
        "error: configuration error: /proc/self/mem cannot be read (EIO) [config_invalid]",
      );
      expect(run.stdout).not.toContain("no problem found");
    },
  );

  it("concurrent lore trust of many folders loses none", async () => {
    const folders = Array.from({ length: 6 }, (_, i) => join(sandbox.dir, `many-${i}`));
    for (const f of folders) mkdirSync(f);
    const runs = await Promise.all(
      folders.map((f) => runLore(["trust", f], { cwd: sandbox.dir, env: sandbox.env })),
    );
    expect(runs.map((r) => r.code)).toEqual(folders.map(() => 0));
    const list = await runLore(["trust", "--list"], { cwd: sandbox.dir, env: sandbox.env });
    expect(list.stdout.trim().split("\n")).toEqual([...folders].sort());
  });
});
