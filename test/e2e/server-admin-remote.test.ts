/**
 * `lore user|token|group|access|key|repo|branch` over a real `lore serve`'s API (remote
 * mode: `[server] url` set, the data folder not on this machine) give the same output —
 * text, `--json`, refusals and exit codes — as on the server's database directly (local
 * mode). Both modes run against the one server database: reads are compared on the same
 * state; a write is done over the API, undone on the database, done again on the
 * database, and the two outputs compared (ids, times and secrets masked).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, type LoreRun, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

const KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop\n";
const FINGERPRINT = "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8";

let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let data: string;
let localConfig: string;
let remoteConfig: string;

beforeAll(async () => {
  sandbox = isolatedEnv();
  data = join(sandbox.dir, "data", "lore", "server");
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  localConfig = join(sandbox.dir, "local.toml");
  writeFileSync(localConfig, `[server]\ndata = ${JSON.stringify(data)}\n`);
  // A client machine: the server's address, a data folder that holds no server database.
  remoteConfig = join(sandbox.dir, "remote.toml");
  writeFileSync(
    remoteConfig,
    `[server]\nurl = "http://127.0.0.1:${served.url.port}"\ndata = ${JSON.stringify(join(sandbox.dir, "client-data"))}\n`,
  );
  writeFileSync(join(sandbox.dir, "id_ed25519.pub"), KEY);
});
afterAll(async () => {
  await served?.stop();
  sandbox?.cleanup();
});

function local(...args: string[]): Promise<LoreRun> {
  return runLore([...args, "--config", localConfig], { cwd: sandbox.dir, env: sandbox.env });
}

function remote(
  args: readonly string[],
  env: Record<string, string> = { LORE_TOKEN: served.token },
): Promise<LoreRun> {
  return runLore([...args, "--config", remoteConfig], {
    cwd: sandbox.dir,
    env: { ...sandbox.env, ...env },
  });
}

/** The same command in both modes on the same state: the same code, stdout and stderr. */
async function same(...args: string[]): Promise<LoreRun> {
  const here = await local(...args);
  const there = await remote(args);
  expect(there, args.join(" ")).toEqual(here);
  return here;
}

/** Ids, times and secrets, which differ between two runs of one write. */
function masked(run: LoreRun): LoreRun {
  const mask = (text: string) =>
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/g, "<time>")
      .replace(/lore_[A-Za-z0-9_-]{43}/g, "<secret>")
      .replace(/lore_[A-Za-z0-9_-]{7}/g, "<prefix>")
      .replace(/"(id|userId|createdAt|expiresAt|lastUsedAt)": \d+/g, '"$1": <n>')
      .replace(/\b(token|key) \d+\b/g, "$1 <n>");
  return { code: run.code, stdout: mask(run.stdout), stderr: mask(run.stderr) };
}

/** A write over the API, undone on the database, done on the database: the same output. */
async function pair(args: string[], undo: string[][] = []): Promise<LoreRun> {
  const there = await remote(args);
  for (const step of undo) expect((await local(...step)).code, step.join(" ")).toBe(0);
  const here = await local(...args);
  expect(masked(there), args.join(" ")).toEqual(masked(here));
  expect(here.code, `${args.join(" ")}: ${here.stderr}`).toBe(0);
  return here;
}

// Each test spawns `lore` some 20–50 times.
describe("the administration commands over the API give what they give on the database", {
  timeout: 300_000,
}, () => {
  it("remote mode works over the API: no server.db appears on the client side", async () => {
    expect((await remote(["user", "list"])).code).toBe(0);
    expect(existsSync(join(sandbox.dir, "client-data"))).toBe(false);
  });

  it("lore user add|list|rm", async () => {
    expect((await pair(["user", "add", "anna"], [["user", "rm", "anna"]])).stdout).toBe(
      "user anna added; next: lore token create anna --scopes …\n",
    );
    await pair(["user", "add", "root", "--admin", "--json"], [["user", "rm", "root"]]);
    expect((await same("user", "add", "anna")).code).toBe(4);
    expect((await same("user", "add", "Anna")).code).toBe(2);
    await same("user", "list");
    const list = JSON.parse((await same("user", "list", "--json")).stdout) as { name: string }[];
    expect(list.map((u) => u.name)).toEqual(["anna", "root", "tester"]);
    await pair(["user", "add", "gone"], [["user", "rm", "gone"]]);
    await pair(["user", "rm", "gone"], [["user", "add", "gone"]]);
    expect((await same("user", "rm", "gone")).stderr).toBe("lore: no user gone [user_not_found]\n");
  });

  it("lore repo create|list with Lore's hooks, bad names refused alike", async () => {
    const created = await pair(
      ["repo", "create", "acme/app", "--default-branch", "main"],
      [["repo", "rm", "acme/app", "--yes"]],
    );
    const bare = join(data, "repos", "acme", "app.git");
    expect(created.stdout).toBe(`created acme/app (private, default branch main) at ${bare}\n`);
    await pair(
      ["repo", "create", "acme/docs", "--public", "--default-branch", "trunk", "--json"],
      [["repo", "rm", "acme/docs", "--yes"]],
    );
    // Created over the API, the repository got Lore's push hooks too.
    expect((await remote(["repo", "create", "acme/hooked"])).code).toBe(0);
    expect(existsSync(join(data, "repos", "acme", "hooked.git", "hooks", "pre-receive"))).toBe(
      true,
    );
    expect((await remote(["repo", "rm", "acme/hooked", "--yes"])).code).toBe(0);
    expect((await same("repo", "create", "acme/app")).code).toBe(4);
    for (const name of [
      "acme/-rf",
      "acme/..",
      "acme/%2e%2e",
      "a/b/c",
      "acme/app.git",
      "Acme/App",
    ]) {
      expect((await same("repo", "create", name)).code, name).toBe(2);
      expect((await same("repo", "rm", name, "--yes")).code, name).toBe(2);
      // Only looked up there, a bad name is no such repository, in both modes.
      expect((await same("access", "list", name)).code, name).toBe(3);
    }
    expect((await same("repo", "list")).stdout).toBe(
      "acme/app  private  main\nacme/docs  public  trunk\n",
    );
    await same("repo", "list", "--json");
  });

  it("lore token create prints the token alone on stdout over the API too; list, revoke", async () => {
    const args = [
      "token",
      "create",
      "anna",
      "--scopes",
      "knowledge:read,repo:read",
      "--expires",
      "30d",
      "--label",
      "laptop",
    ];
    const there = await remote(args);
    const here = await local(...args);
    expect(masked(there)).toEqual(masked(here));
    expect(there.stdout).toMatch(/^lore_[A-Za-z0-9_-]{43}\n$/);
    expect(there.stderr).toMatch(
      /^lore: token \d+ for anna: knowledge:read,repo:read, expires: \S+Z; shown once — store it now\n$/,
    );
    const who = await fetch(new URL("/api/v1/user", served.url), {
      headers: { authorization: `Bearer ${there.stdout.trim()}` },
    });
    expect(((await who.json()) as { name: string }).name).toBe("anna");
    expect((await same("token", "list", "anna")).stdout).not.toContain(there.stdout.trim());
    const json = (await same("token", "list", "anna", "--json")).stdout;
    expect(json).not.toContain("hash");
    expect((await same("token", "create", "anna", "--scopes", "knowlege:read")).stderr).toContain(
      "did you mean knowledge:read?",
    );
    expect(
      (await same("token", "create", "anna", "--scopes", "repo:read", "--expires", "30 days")).code,
    ).toBe(2);
    expect((await same("token", "create", "nobody", "--scopes", "repo:read")).code).toBe(3);
    expect((await same("token", "list", "nobody")).code).toBe(3);
    const ids = (JSON.parse(json) as { id: number }[]).map((t) => String(t.id));
    expect((await remote(["token", "revoke", ids[0] as string])).stdout).toBe(
      `token ${ids[0]} revoked\n`,
    );
    expect((await local("token", "revoke", ids[1] as string)).stdout).toBe(
      `token ${ids[1]} revoked\n`,
    );
    expect((await same("token", "revoke", ids[0] as string)).stderr).toBe(
      `lore: no token ${ids[0]} [token_not_found]\n`,
    );
    expect((await same("token", "revoke", "x")).code).toBe(3);
  });

  it("lore group add|list|member and lore access grant|revoke|list", async () => {
    await pair(["group", "add", "leads"], [["group", "rm", "leads"]]);
    expect((await same("group", "add", "leads")).code).toBe(4);
    await pair(
      ["group", "member", "add", "leads", "anna"],
      [["group", "member", "rm", "leads", "anna"]],
    );
    expect((await same("group", "list")).stdout).toBe("leads: anna\n");
    await same("group", "list", "--json");
    expect((await same("group", "member", "list", "leads")).stdout).toBe("anna\n");
    expect((await same("group", "member", "list", "leads", "--json")).stdout).toBe(
      '[\n  "anna"\n]\n',
    );
    expect((await same("group", "member", "add", "leads", "nobody")).code).toBe(3);
    expect((await same("group", "member", "list", "none")).code).toBe(3);
    expect(
      (
        await pair(
          ["access", "grant", "anna", "acme/app", "write"],
          [["access", "revoke", "anna", "acme/app"]],
        )
      ).stdout,
    ).toBe("anna: write on acme/app\n");
    await pair(
      ["access", "grant", "group:leads", "acme/app", "read"],
      [["access", "revoke", "group:leads", "acme/app"]],
    );
    expect((await same("access", "list", "acme/app")).stdout).toBe(
      "anna  write\ngroup:leads  read\n",
    );
    await same("access", "list", "acme/app", "--json");
    await same("access", "list", "acme/docs");
    expect((await same("access", "grant", "anna", "acme/app", "wrte")).stderr).toContain(
      "did you mean write?",
    );
    expect((await same("access", "grant", "anna", "acme/none", "read")).code).toBe(3);
    expect((await same("access", "grant", "group:none", "acme/app", "read")).stderr).toBe(
      "lore: no group none [group_not_found]\n",
    );
    expect((await same("access", "revoke", "group:leads", "acme/docs")).stdout).toBe(
      "group:leads had no grant on acme/docs\n",
    );
    await pair(
      ["access", "revoke", "group:leads", "acme/app"],
      [["access", "grant", "group:leads", "acme/app", "read"]],
    );
    await pair(
      ["group", "member", "rm", "leads", "anna"],
      [["group", "member", "add", "leads", "anna"]],
    );
    expect((await same("group", "member", "rm", "leads", "anna")).stdout).toBe(
      "anna was not a member of leads\n",
    );
  });

  it("lore key add|list|rm by id and by fingerprint", async () => {
    expect(
      masked(await pair(["key", "add", "anna", "id_ed25519.pub"], [["key", "rm", FINGERPRINT]]))
        .stdout,
    ).toBe(`key <n> ${FINGERPRINT} (ssh-ed25519) added for anna\n`);
    await same("key", "list");
    await same("key", "list", "anna", "--json");
    expect((await same("key", "add", "anna", "id_ed25519.pub")).stderr).toBe(
      `lore: the SSH key ${FINGERPRINT} is already registered [key_exists]\n`,
    );
    expect((await same("key", "add", "anna", "missing.pub")).code).toBe(3);
    writeFileSync(join(sandbox.dir, "id_x"), "-----BEGIN OPENSSH PRIVATE KEY-----\nxyz\n");
    expect((await same("key", "add", "anna", "id_x")).code).toBe(2);
    await pair(["key", "rm", FINGERPRINT], [["key", "add", "anna", "id_ed25519.pub"]]);
    const id = (
      JSON.parse((await local("key", "add", "anna", "id_ed25519.pub", "--json")).stdout) as {
        id: number;
      }
    ).id;
    expect((await remote(["key", "rm", String(id)])).stdout).toBe(
      `key ${id} ${FINGERPRINT} removed\n`,
    );
    expect((await same("key", "rm", String(id))).code).toBe(3);
    expect((await same("key", "list", "--json")).stdout).toBe("[]\n");
  });

  it("lore branch protect|rules|unprotect", async () => {
    expect(
      (await pair(["branch", "protect", "acme/app", "release/*", "--push", "anna,group:leads"]))
        .stdout,
    ).toBe("acme/app release/*: protected; push: anna, group:leads; force pushes refused\n");
    await pair(["branch", "protect", "acme/app", "main", "--allow-force", "--approvals", "2"]);
    expect((await same("branch", "rules", "acme/app")).stdout).toBe(
      "main  push: anyone with write access  force: allowed  approvals: 2\nrelease/*  push: anna, group:leads  force: refused\n",
    );
    await same("branch", "rules", "acme/app", "--json");
    expect((await same("branch", "protect", "acme/app", "refs/heads/x")).code).toBe(2);
    expect((await same("branch", "protect", "acme/none", "main")).code).toBe(3);
    expect((await same("branch", "protect", "acme/app", "main", "--push", "nobody")).code).toBe(3);
    await pair(
      ["branch", "unprotect", "acme/app", "release/*"],
      [["branch", "protect", "acme/app", "release/*"]],
    );
    expect((await same("branch", "unprotect", "acme/app", "release/*")).stdout).toBe(
      "acme/app had no rule for release/*\n",
    );
  });

  it("lore repo rm asks for --yes, then removes over the API as on the database", async () => {
    expect((await same("repo", "rm", "acme/docs")).stderr).toContain(
      "run lore repo rm acme/docs --yes",
    );
    const bare = join(data, "repos", "acme", "docs.git");
    expect(
      (await pair(["repo", "rm", "acme/docs", "--yes"], [["repo", "create", "acme/docs"]])).stdout,
    ).toBe(`removed acme/docs and ${bare}\n`);
    expect(existsSync(bare)).toBe(false);
    expect((await same("repo", "rm", "acme/docs", "--yes")).code).toBe(3);
  });

  it("refusals of the remote mode: a non-admin token, a token without admin, none, Russian messages", async () => {
    const anna = (
      await local("token", "create", "anna", "--scopes", "knowledge:read,repo:read")
    ).stdout.trim();
    expect(await remote(["user", "list"], { LORE_TOKEN: anna })).toEqual({
      code: 5,
      stdout: "",
      stderr:
        "lore: not allowed: this call needs site admin rights (lore user add NAME --admin) [forbidden]\n",
    });
    const everyday = (
      await local("token", "create", "root", "--scopes", "knowledge:read")
    ).stdout.trim();
    expect((await remote(["repo", "list"], { LORE_TOKEN: everyday })).stderr).toBe(
      "lore: not allowed: this call needs scope admin (lore token create NAME --scopes admin) [forbidden]\n",
    );
    const none = await remote(["user", "list"], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("[server_not_configured]");
    const ru = await remote(["user", "rm", "nobody"], {
      LORE_TOKEN: served.token,
      LORE_LANG: "ru",
    });
    expect(ru).toEqual({
      code: 3,
      stdout: "",
      stderr: "lore: нет пользователя nobody [user_not_found]\n",
    });
  });
});

describe("with the server stopped", () => {
  it("remote mode says the server does not answer (exit 6); local mode still works", async () => {
    await served.stop();
    const run = await remote(["user", "list"]);
    expect(run.code).toBe(6);
    expect(run.stderr).toContain("[server_unreachable]");
    expect((await local("user", "list")).code).toBe(0);
  });
});
