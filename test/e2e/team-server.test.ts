import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";
import { makeRepo } from "../helpers/make-repo.js";
import { entry, ID_A, ID_B, ID_C, K, ON_PATH } from "../helpers/push-entries.js";
import { freePort, gitClientEnv, runGitClient } from "./git-client.js";
import type { LoreRun } from "./run-lore.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The whole team server as a team meets it: `lore serve` from the built bin, set up with the
// administration commands, the real git client pushing over smart HTTP and over SSH, the
// parse report as `remote:` lines, the index fed from the default branch only, read back
// through the REST API with a token.

/** The pusher's `remote:` lines, git's padding removed, empty ones dropped. */
function remoteLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("remote: "))
    .map((line) => line.slice("remote: ".length).replace(/\s+$/, ""))
    .filter((line) => line !== "");
}

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let sshPort: number;
let annaToken: string;
let borisToken: string;
let gitEnv: Record<string, string>;
let work: string;

const lore = async (args: readonly string[]): Promise<LoreRun> => {
  const run = await runLore(args, { cwd: home.dir, env: home.env });
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
};

beforeAll(async () => {
  home = isolatedEnv();
  sshPort = await freePort();
  served = await startServe(["--port", "0", "--ssh-port", String(sshPort)], {
    cwd: home.dir,
    env: home.env,
  });
  await lore(["repo", "create", "acme/app"]);
  await lore(["repo", "create", "acme/secret"]);
  await lore(["user", "add", "anna"]);
  await lore(["user", "add", "boris"]);
  const scopes = "knowledge:read,knowledge:write,repo:read,repo:write";
  annaToken = (await lore(["token", "create", "anna", "--scopes", scopes])).stdout.trim();
  borisToken = (await lore(["token", "create", "boris", "--scopes", scopes])).stdout.trim();
  await lore(["access", "grant", "anna", "acme/app", "write"]);
  await lore(["access", "grant", "boris", "acme/app", "read"]);
  const key = join(home.dir, "anna_ed25519");
  const keygen = await runGitClient(["--version"], home.dir, home.env);
  expect(keygen.code).toBe(0);
  await new Promise<void>((resolve, reject) => {
    const child = spawn("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key], {
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ssh-keygen ${code}`))));
  });
  await lore(["key", "add", "anna", `${key}.pub`]);
  gitEnv = gitClientEnv(home, {
    GIT_SSH_COMMAND: `ssh -i ${key} -p ${sshPort} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o LogLevel=ERROR`,
  });
  mkdirSync(home.env.HOME ?? "", { recursive: true });
  work = join(home.dir, "work");
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

const base = () => `${served.url.protocol}//${served.url.host}`;
const basic = (token: string) =>
  `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${token}`).toString("base64")}`;

async function knowledgeOf(token: string, repo = "acme/app"): Promise<Response> {
  return fetch(`${base()}/api/v1/repos/${repo}/knowledge`, {
    headers: { authorization: `Bearer ${token}` },
  });
}

async function indexedPaths(token: string): Promise<string[]> {
  const answer = await knowledgeOf(token);
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as { items: { path: string }[] };
  return body.items.map((item) => item.path).sort();
}

describe("lore serve: git over HTTP and SSH, parse on push, the index read back", () => {
  it("a push over smart HTTP gets the parse report as remote: lines, goes through, and feeds the index", async () => {
    const clone = await runGitClient(
      ["-c", basic(annaToken), "clone", `${base()}/acme/app.git`, work],
      home.dir,
      gitEnv,
    );
    expect(clone.code, clone.stderr).toBe(0);
    mkdirSync(join(work, K), { recursive: true });
    writeFileSync(
      join(work, K, "a-typo.md"),
      entry(ID_A, "Deploy with the blue-green switch.", ["sumary: Deploys"]),
    );
    writeFileSync(join(work, K, "b-mechanism.md"), ON_PATH);
    await runGitClient(["add", "-A"], work, gitEnv);
    await runGitClient(["commit", "-qm", "knowledge"], work, gitEnv);
    const push = await runGitClient(
      ["-c", basic(annaToken), "push", "origin", "HEAD:main"],
      work,
      gitEnv,
    );
    expect(push.code, push.stderr).toBe(0);
    expect(remoteLines(push.stderr)).toEqual([
      `${K}/a-typo.md:3:1: key “sumary” is not known, the nearest known is “summary” (sumary) [unknown_key]`,
      `${K}/b-mechanism.md:3:1: mechanism “on_path” is not known to this version; the entry is unreachable until it is (contract[0].mechanism) [unknown_mechanism]`,
      "1 entry needs mechanism “on_path”, which this version does not know",
    ]);
    // The server indexed the push before git's answer ended: the index file holds the new
    // head at once, read directly (a read over the API would heal it first).
    const head = (await runGitClient(["rev-parse", "HEAD"], work, gitEnv)).stdout.trim();
    const index = openIndex(home.env.LORE_DB ?? "");
    try {
      expect(index.repository("acme/app")?.commit).toBe(head);
    } finally {
      index.close();
    }
    expect(await indexedPaths(annaToken)).toEqual([`${K}/a-typo.md`, `${K}/b-mechanism.md`]);
    // boris reads the repository too; the knowledge is the same for him.
    expect(await indexedPaths(borisToken)).toEqual([`${K}/a-typo.md`, `${K}/b-mechanism.md`]);
  });

  it("over SSH: a feature branch is parsed and reported but not indexed; merged into main by a push, it is", async () => {
    await runGitClient(
      ["remote", "set-url", "origin", `ssh://git@127.0.0.1:${sshPort}/acme/app.git`],
      work,
      gitEnv,
    );
    await runGitClient(["checkout", "-qb", "feature"], work, gitEnv);
    writeFileSync(join(work, K, "c-dup.md"), entry(ID_A, "A copy with another text."));
    writeFileSync(join(work, K, "d-new.md"), entry(ID_C, "Roll back with the switch."));
    await runGitClient(["add", "-A"], work, gitEnv);
    await runGitClient(["commit", "-qm", "feature knowledge"], work, gitEnv);
    const feature = await runGitClient(["push", "origin", "feature"], work, gitEnv);
    expect(feature.code, feature.stderr).toBe(0);
    expect(remoteLines(feature.stderr)).toEqual([
      `${K}/c-dup.md: id ${ID_A} is already used by ${K}/a-typo.md; skipped (id) [duplicate_id]`,
    ]);
    expect(await indexedPaths(annaToken)).toEqual([`${K}/a-typo.md`, `${K}/b-mechanism.md`]);
    await runGitClient(["checkout", "-q", "main"], work, gitEnv);
    await runGitClient(["rm", "-q", `${K}/b-mechanism.md`], work, gitEnv);
    await runGitClient(["commit", "-qm", "drop the hook note"], work, gitEnv);
    await runGitClient(["merge", "-q", "--no-edit", "feature"], work, gitEnv);
    const merged = await runGitClient(["push", "origin", "main"], work, gitEnv);
    expect(merged.code, merged.stderr).toBe(0);
    expect(await indexedPaths(annaToken)).toEqual([`${K}/a-typo.md`, `${K}/d-new.md`]);
  });

  it("the report speaks the pusher's language: Accept-Language over HTTP, the LANG an SSH client sends", async () => {
    await runGitClient(["checkout", "-qb", "lang-ru"], work, gitEnv);
    writeFileSync(join(work, K, "e-typo.md"), entry(ID_B, "Rotate the keys.", ["sumary: Keys"]));
    await runGitClient(["add", "-A"], work, gitEnv);
    await runGitClient(["commit", "-qm", "a typo"], work, gitEnv);
    const russian = `${K}/e-typo.md:3:1: ключ „sumary“ не известен, ближайший известный — „summary“ (sumary) [unknown_key]`;
    const overSsh = await runGitClient(["push", "origin", "lang-ru"], work, {
      ...gitEnv,
      LANG: "ru_RU.UTF-8",
      GIT_SSH_COMMAND: `${gitEnv.GIT_SSH_COMMAND} -o SendEnv=LANG`,
    });
    expect(overSsh.code, overSsh.stderr).toBe(0);
    expect(remoteLines(overSsh.stderr)).toEqual([russian]);
    // git sends Accept-Language from LANGUAGE (or an installed locale).
    writeFileSync(
      join(work, K, "e-typo.md"),
      entry(ID_B, "Rotate the keys now.", ["sumary: Keys"]),
    );
    await runGitClient(["commit", "-qam", "again"], work, gitEnv);
    const overHttp = await runGitClient(
      ["-c", basic(annaToken), "push", `${base()}/acme/app.git`, "lang-ru"],
      work,
      { ...gitEnv, LANGUAGE: "ru" },
    );
    expect(overHttp.code, overHttp.stderr).toBe(0);
    expect(remoteLines(overHttp.stderr)).toEqual([russian]);
    // Nothing said: the server's language (English here).
    writeFileSync(
      join(work, K, "e-typo.md"),
      entry(ID_B, "Rotate the keys today.", ["sumary: Keys"]),
    );
    await runGitClient(["commit", "-qam", "once more"], work, gitEnv);
    const plain = await runGitClient(["push", "origin", "lang-ru"], work, gitEnv);
    expect(remoteLines(plain.stderr)[0]).toContain("is not known");
  });

  it("prints the SSH host key's fingerprint at start, the one the ssh client is shown", async () => {
    const printed = /SSH host key ED25519 (SHA256:\S+)/.exec(served.stderr())?.[1];
    expect(printed).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // What a client sees: the key the server offers, fingerprinted by OpenSSH itself.
    const seen = await new Promise<string>((resolve, reject) => {
      const scan = spawn("sh", [
        "-c",
        `ssh-keyscan -t ed25519 -p ${sshPort} 127.0.0.1 2>/dev/null | ssh-keygen -lf -`,
      ]);
      let out = "";
      scan.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
      });
      scan.on("error", reject);
      scan.on("close", () => resolve(out));
    });
    expect(seen.split(" ")[1]).toBe(printed);
  });

  it("an RSA key under 2048 bits is key_invalid, by lore key add and by POST /api/v1/admin/keys", async () => {
    const weak = join(home.dir, "weak_rsa");
    await new Promise<void>((resolve, reject) => {
      const child = spawn("ssh-keygen", ["-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", weak], {
        stdio: "ignore",
      });
      child.on("error", reject);
      child.on("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`ssh-keygen ${code}`)),
      );
    });
    const reason =
      "the ssh-rsa key is 1024 bits; at least 2048 are needed (ssh-keygen -t ed25519, or -t rsa -b 3072)";
    const cli = await runLore(["key", "add", "boris", `${weak}.pub`], {
      cwd: home.dir,
      env: home.env,
    });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe(`lore: not an SSH public key: ${reason} [key_invalid]\n`);
    const api = await fetch(`${base()}/api/v1/admin/keys`, {
      method: "POST",
      headers: { ...served.headers, "content-type": "application/json" },
      body: JSON.stringify({ user: "boris", key: readFileSync(`${weak}.pub`, "utf8") }),
    });
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({
      error: { code: "key_invalid", message: `not an SSH public key: ${reason}` },
    });
  });

  it("rights at the door: a reader cannot push, a stranger's repository is not found, no token is 401", async () => {
    const readOnly = await runGitClient(
      ["-c", basic(borisToken), "push", `${base()}/acme/app.git`, "main:boris"],
      work,
      gitEnv,
    );
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.stderr).toMatch(/forbidden|403/);
    const hidden = await runGitClient(
      ["-c", basic(annaToken), "ls-remote", `${base()}/acme/secret.git`],
      work,
      gitEnv,
    );
    const missing = await runGitClient(
      ["-c", basic(annaToken), "ls-remote", `${base()}/acme/nothing.git`],
      work,
      gitEnv,
    );
    expect(hidden.code).not.toBe(0);
    expect(hidden.stderr.replaceAll("secret", "X")).toBe(missing.stderr.replaceAll("nothing", "X"));
    const hiddenApi = await knowledgeOf(annaToken, "acme/secret");
    const missingApi = await knowledgeOf(annaToken, "acme/nothing");
    expect(hiddenApi.status).toBe(404);
    expect(missingApi.status).toBe(404);
    expect((await hiddenApi.text()).replaceAll("secret", "X")).toBe(
      (await missingApi.text()).replaceAll("nothing", "X"),
    );
    const anonymous = await fetch(`${base()}/api/v1/repos/acme/app/knowledge`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "token_required" } });
  });

  it("a wrong token over git HTTP: git shows Lore's refusal with its code as a remote: line", async () => {
    const wrong = `lore_${"x".repeat(43)}`;
    const run = await runGitClient(
      // The token as the password git has (a credential helper's or the URL's): git sends
      // it, gets the 401 and says why.
      ["ls-remote", `${served.url.protocol}//x:${wrong}@${served.url.host}/acme/app.git`],
      home.dir,
      gitEnv,
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^remote: .*\[token_invalid\]$/m);
    expect(run.stderr).toContain("Authentication failed");
    // Not a git client: the JSON shape of every other refusal.
    const answer = await fetch(`${base()}/acme/app.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${wrong}`).toString("base64")}` },
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: { code: "token_invalid" } });
  });

  it("over /mcp, the knowledge-root tools are listed to site admins only; a call by anyone else is forbidden", async () => {
    const toolsOf = async (token: string) => {
      const client = new Client({ name: "test", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(served.url, {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        const status = await client.callTool({ name: "knowledge_status", arguments: {} });
        return { names, status };
      } finally {
        await client.close();
      }
    };
    const owner = await toolsOf(served.token);
    expect(owner.names).toContain("knowledge_status");
    expect(owner.names).toContain("knowledge_recall");
    expect(owner.status.isError).not.toBe(true);
    const anna = await toolsOf(annaToken);
    expect(anna.names).toContain("knowledge_recall");
    for (const root of [
      "knowledge_read_file",
      "knowledge_write_file",
      "knowledge_route_context",
      "knowledge_status",
    ]) {
      expect(anna.names).not.toContain(root);
    }
    expect(anna.status.isError).toBe(true);
    const text = (anna.status.content as { text: string }[])[0]?.text ?? "";
    expect(JSON.parse(text).error.code).toBe("forbidden");
  });

  it("over /mcp, a site admin sees no repository the OS user indexed locally but the server does not serve", async () => {
    const local = await makeRepo({
      [`${K}/local-only.md`]: entry(
        "0190f5a4-3b2c-7d10-8a11-00000000aaaa",
        "Zanzibar quokka runbook.",
      ),
    });
    try {
      const indexed = await runLore(["index", local.dir], { cwd: home.dir, env: home.env });
      expect(indexed.code).toBe(0);
      // The CLI, on the same index file, recalls it: it is indexed.
      const cli = await runLore(["recall", "zanzibar", "quokka", "--json"], {
        cwd: local.dir,
        env: home.env,
      });
      expect(JSON.parse(cli.stdout).hits).toHaveLength(1);
      const client = new Client({ name: "owner", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(served.url, {
          requestInit: { headers: { authorization: `Bearer ${served.token}` } },
        }),
      );
      try {
        const answer = await client.callTool({
          name: "knowledge_recall",
          arguments: { query: "zanzibar quokka" },
        });
        const text = (answer.content as { text: string }[])[0]?.text ?? "";
        expect(answer.isError).not.toBe(true);
        expect(text).not.toContain("Zanzibar");
        expect(JSON.parse(text).hits).toEqual([]);
      } finally {
        await client.close();
      }
    } finally {
      await local.cleanup();
    }
  });
});
