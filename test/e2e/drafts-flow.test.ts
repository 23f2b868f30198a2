import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIndex } from "../../src/index/entry-index.js";
import { useTestLicence } from "../helpers/test-licence.js";
import { gitClientEnv, runGitClient } from "./git-client.js";
import type { LoreRun } from "./run-lore.js";
import { isolatedEnv, LORE_BIN, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// The life of a draft on a real team server (seed 004, "Как знание выходит наружу", "Что
// происходит с черновиком", "Интерфейс", "Пределы"): `lore serve` from the built bin, the
// REST API and /mcp over real HTTP with tokens, the real git client pushing and merging.

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let gitEnv: Record<string, string>;
let work: string;
const tokens: Record<string, string> = {};
const SCOPES = "knowledge:read,knowledge:write,repo:read,repo:write";

const lore = async (args: readonly string[]): Promise<LoreRun> => {
  const run = await runLore(args, { cwd: home.dir, env: home.env });
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
};
const base = () => `${served.url.protocol}//${served.url.host}`;
const basic = (token: string) =>
  `http.extraHeader=Authorization: Basic ${Buffer.from(`x:${token}`).toString("base64")}`;

/** A git command in the work clone as anna, authenticated over smart HTTP. */
async function annaGit(args: readonly string[]): Promise<LoreRun> {
  const run = await runGitClient(["-c", basic(tokens.anna as string), ...args], work, gitEnv);
  if (run.code !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  return run;
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in the assertions.
  body: any;
}

async function api(who: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const token = who === "owner" ? served.token : (tokens[who] as string);
  const response = await fetch(`${base()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

const DRAFTS = "/api/v1/repos/acme/app/knowledge/drafts";

/** Every draft of acme/app, over all pages. */
async function allDrafts(
  who = "anna",
): Promise<{ id: string; branch: string; delivered?: { branch: string; commit: string } }[]> {
  const out = [];
  let after: string | null = null;
  do {
    const page: Answer = await api(
      who,
      "GET",
      `${DRAFTS}?per_page=100${after === null ? "" : `&after=${encodeURIComponent(after)}`}`,
    );
    expect(page.status).toBe(200);
    out.push(...page.body.items);
    after = page.body.next_cursor;
  } while (after !== null);
  return out;
}

async function mcpAs(who: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(served.url, {
    requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
  });
  const client = new Client({ name: "test", version: "1" });
  await client.connect(transport);
  return client;
}

async function remoteHead(branch: string): Promise<string | undefined> {
  const run = await annaGit(["ls-remote", `${base()}/acme/app.git`, `refs/heads/${branch}`]);
  return run.stdout.trim().split(/\s+/)[0] || undefined;
}

async function restart(): Promise<void> {
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
}

beforeAll(async () => {
  home = isolatedEnv();
  // Setting a draft limit (PUT) is the Max edition's.
  useTestLicence(home.env, "max");
  await restart();
  await lore(["repo", "create", "acme/app"]);
  for (const user of ["anna", "boris", "carol", "dora", "erik"]) {
    await lore(["user", "add", user]);
    tokens[user] = (await lore(["token", "create", user, "--scopes", SCOPES])).stdout.trim();
  }
  for (const user of ["anna", "boris", "dora", "erik"]) {
    await lore(["access", "grant", user, "acme/app", "write"]);
  }
  await lore(["access", "grant", "carol", "acme/app", "read"]);
  gitEnv = gitClientEnv(home);
  mkdirSync(home.env.HOME ?? "", { recursive: true });
  work = join(home.dir, "work");
  mkdirSync(work);
  await annaGit(["init", "-q", "-b", "main"]);
  await annaGit(["remote", "add", "origin", `${base()}/acme/app.git`]);
  await annaGit(["commit", "-q", "--allow-empty", "-m", "start"]);
  await annaGit(["push", "-q", "origin", "main"]);
  await annaGit(["checkout", "-q", "-b", "feature/x"]);
  await annaGit(["commit", "-q", "--allow-empty", "-m", "code change"]);
  await annaGit(["push", "-q", "origin", "feature/x"]);
  await annaGit(["checkout", "-q", "-b", "release/1", "main"]);
  await annaGit(["push", "-q", "origin", "release/1"]);
  await annaGit(["checkout", "-q", "main"]);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

let pathOneId = "";

describe("drafts over the REST API and /mcp", () => {
  it("path 1: a draft is seen by a second user from another branch, delivered into the branch, gone once merged; counters stay under the id", async () => {
    const written = await api("anna", "POST", DRAFTS, {
      branch: "feature/x",
      title: "LoreRun sqlx migrations as the schema owner",
      body: "Migrations applied as a superuser create objects the next migration cannot alter.",
      words: ["sqlx", "migration"],
    });
    expect(written.status).toBe(201);
    const id: string = written.body.id;
    pathOneId = id;
    expect(written.body).toMatchObject({ branch: "feature/x", author: "anna" });
    expect(written.body.text).toContain("origin: agent");
    expect(written.body.size).toBe(Buffer.byteLength(written.body.text, "utf8"));
    expect(written.body.delivered).toBeUndefined();

    // Boris (another user, working on main) sees it: in GET drafts with its body, and in
    // recall marked as a draft of feature/x; opening it gives its body.
    const listed = await api("boris", "GET", DRAFTS);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((d: { id: string }) => d.id)).toContain(id);
    expect(listed.body.items.find((d: { id: string }) => d.id === id).text).toBe(written.body.text);
    const boris = await mcpAs("boris");
    const recalled = await boris.callTool({
      name: "knowledge_recall",
      arguments: { query: "sqlx" },
    });
    const hits = (
      recalled.structuredContent as { hits: { id: string; draft?: boolean; branch?: string }[] }
    ).hits;
    expect(hits.find((h) => h.id === id)).toMatchObject({ draft: true, branch: "feature/x" });
    const opened = await boris.callTool({ name: "knowledge_open", arguments: { id } });
    expect(opened.isError).toBeFalsy();
    expect(JSON.stringify(opened.structuredContent)).toContain("superuser");
    await boris.close();

    // Deliver path 1: one commit on feature/x holding the file, byte for byte.
    const before = await remoteHead("feature/x");
    const delivered = await api("anna", "POST", `${DRAFTS}/deliver`, {
      branch: "feature/x",
      mode: "same",
    });
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ branch: "feature/x", delivered: [id] });
    expect(delivered.body.commits).toHaveLength(1);
    expect(delivered.body.merge_request).toBeUndefined();
    expect(await remoteHead("feature/x")).toBe(delivered.body.commits[0]);
    await annaGit(["fetch", "-q", "origin"]);
    const parent = await annaGit(["rev-parse", `${delivered.body.commits[0]}^`]);
    expect(parent.stdout.trim()).toBe(before);
    const file = await annaGit([
      "show",
      `${delivered.body.commits[0]}:.gitriver/knowledge/${id}.md`,
    ]);
    expect(file.stdout).toBe(written.body.text);
    const author = await annaGit(["log", "-1", "--format=%an|%cn", delivered.body.commits[0]]);
    expect(author.stdout.trim()).toBe("anna|Lore");
    // Still a draft, marked delivered; a second delivery has nothing to do.
    const marked = (await allDrafts()).find((d) => d.id === id);
    expect(marked?.delivered).toMatchObject({
      branch: "feature/x",
      commit: delivered.body.commits[0],
    });
    const again = await api("anna", "POST", `${DRAFTS}/deliver`, {
      branch: "feature/x",
      mode: "same",
    });
    expect(again.body).toMatchObject({ commits: [], delivered: [] });

    // The developer's branch merged into main by a real push: the draft is gone, the file
    // entry holds the same id.
    await annaGit(["merge", "-q", "--no-ff", "-m", "merge feature/x", "origin/feature/x"]);
    await annaGit(["push", "-q", "origin", "main"]);
    expect((await allDrafts()).map((d) => d.id)).not.toContain(id);
    const knowledge = await api("boris", "GET", "/api/v1/repos/acme/app/knowledge");
    expect(knowledge).toMatchObject({ status: 200 });
    expect(knowledge.body.items.find((i: { id: string }) => i.id === id)).toMatchObject({
      path: `.gitriver/knowledge/${id}.md`,
    });
  });

  it("path 2: a separate branch with a machine merge request; closed and its branch deleted, the draft stays and is deliverable again", async () => {
    const written = await api("boris", "POST", DRAFTS, {
      branch: "gone/branch",
      title: "Retry the deploy hook once before paging",
      body: "The hook fails on the first cold start of the runner.",
      words: ["deploy", "hook"],
    });
    expect(written.status).toBe(201);
    const id: string = written.body.id;
    const first = await api("boris", "POST", `${DRAFTS}/deliver`, {
      branch: "gone/branch",
      mode: "separate",
      label: "hooks",
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ branch: "knowledge/gone/branch-hooks", delivered: [id] });
    expect(first.body.commits).toHaveLength(1);
    const number: number = first.body.merge_request;
    expect(number).toBeGreaterThan(0);
    const mr = await api("boris", "GET", `/api/v1/repos/acme/app/pulls/${number}`);
    expect(mr.status).toBe(200);
    expect(mr.body).toMatchObject({
      origin: "machine",
      source: "knowledge/gone/branch-hooks",
      target: "main",
    });
    // The branch grew from main's head.
    const parent = await annaGit(["ls-remote", `${base()}/acme/app.git`, "refs/heads/main"]);
    await annaGit(["fetch", "-q", "origin"]);
    const base1 = await annaGit(["rev-parse", `${first.body.commits[0]}^`]);
    expect(base1.stdout.trim()).toBe(parent.stdout.trim().split(/\s+/)[0]);

    // Closed, and the branch deleted: nothing lost.
    expect(
      (await api("boris", "POST", `/api/v1/repos/acme/app/pulls/${number}/close`)).status,
    ).toBe(200);
    await annaGit(["push", "-q", "origin", "--delete", "knowledge/gone/branch-hooks"]);
    const still = (await allDrafts()).find((d) => d.id === id);
    expect(still).toBeDefined();
    const second = await api("boris", "POST", `${DRAFTS}/deliver`, {
      branch: "gone/branch",
      mode: "separate",
      label: "again",
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ branch: "knowledge/gone/branch-again", delivered: [id] });
    expect(second.body.merge_request).toBeGreaterThan(number);
  });

  it("a merge-request body that sets origin machine is refused with unknown_field", async () => {
    await annaGit(["checkout", "-q", "-b", "feature/mr", "main"]);
    await annaGit(["commit", "-q", "--allow-empty", "-m", "mr"]);
    await annaGit(["push", "-q", "origin", "feature/mr"]);
    await annaGit(["checkout", "-q", "main"]);
    const refused = await api("anna", "POST", "/api/v1/repos/acme/app/pulls", {
      source: "feature/mr",
      target: "main",
      title: "mine",
      body: "",
      origin: "machine",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "unknown_field", data: { field: "origin" } });
  });

  it("a protected branch: delivery refused with branch_protected, nothing written, the draft not marked", async () => {
    await lore(["branch", "protect", "acme/app", "release/*", "--push", "boris"]);
    const written = await api("anna", "POST", DRAFTS, {
      branch: "release/1",
      title: "Tag releases from the release branch",
      body: "The changelog job reads the tag.",
    });
    expect(written.status).toBe(201);
    const head = await remoteHead("release/1");
    const refused = await api("anna", "POST", `${DRAFTS}/deliver`, {
      branch: "release/1",
      mode: "same",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      code: "branch_protected",
      data: { branch: "release/1" },
    });
    expect(await remoteHead("release/1")).toBe(head);
    const draft = (await allDrafts()).find((d) => d.id === written.body.id);
    expect(draft?.delivered).toBeUndefined();
    // Boris may push there: his delivery of the same branch goes through.
    const allowed = await api("boris", "POST", `${DRAFTS}/deliver`, {
      branch: "release/1",
      mode: "same",
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.delivered).toEqual([written.body.id]);
  });

  it("rights: a read-only user cannot write (403 forbidden); a stranger's repository is 404 repo_not_found", async () => {
    const readOnly = await api("carol", "POST", DRAFTS, { branch: "main", title: "t", body: "b" });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe("forbidden");
    expect((await api("carol", "GET", DRAFTS)).status).toBe(200);
    await lore(["repo", "create", "acme/secret"]);
    const hidden = await api("anna", "GET", "/api/v1/repos/acme/secret/knowledge/drafts");
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("repo_not_found");
    const hiddenWrite = await api("anna", "POST", "/api/v1/repos/acme/secret/knowledge/drafts", {
      branch: "main",
      title: "t",
      body: "b",
    });
    expect(hiddenWrite.status).toBe(404);
  });

  it("removing a draft: its author or a writer; a read-only user is refused", async () => {
    const written = await api("anna", "POST", DRAFTS, {
      branch: "main",
      title: "gone soon",
      body: "b",
    });
    const byReader = await api("carol", "DELETE", `${DRAFTS}/${written.body.id}`);
    expect(byReader.status).toBe(403);
    const byWriter = await api("boris", "DELETE", `${DRAFTS}/${written.body.id}`);
    expect(byWriter.status).toBe(204);
    const twice = await api("anna", "DELETE", `${DRAFTS}/${written.body.id}`);
    expect(twice.status).toBe(404);
    expect(twice.body.error.code).toBe("draft_not_found");
  });

  it("strict write: sumary is refused naming summary, over HTTP and over MCP; an unknown body field is unknown_field", async () => {
    const text = "---\norigin: agent\nsumary: wrong key\n---\n\nBody.\n";
    const http = await api("anna", "POST", DRAFTS, { branch: "main", text });
    expect(http.status).toBe(400);
    expect(http.body.error.code).toBe("invalid_entry");
    expect(JSON.stringify(http.body.error)).toContain("summary");
    const anna = await mcpAs("anna");
    const mcp = await anna.callTool({
      name: "knowledge_draft",
      arguments: { repo: "acme/app", branch: "main", text },
    });
    expect(mcp.isError).toBe(true);
    const said = JSON.stringify(mcp.content);
    expect(said).toContain("invalid_entry");
    expect(said).toContain("summary");
    await anna.close();
    const field = await api("anna", "POST", DRAFTS, { branch: "main", titel: "x", body: "y" });
    expect(field.status).toBe(400);
    expect(field.body.error).toMatchObject({
      code: "unknown_field",
      data: { field: "titel", nearest: "title" },
    });
  });

  it("64 KB: a future file of 65,536 bytes is taken, one of 65,537 refused with its size", async () => {
    const small = await api("erik", "POST", DRAFTS, {
      branch: "main",
      title: "Size probe",
      body: "x",
    });
    expect(small.status).toBe(201);
    const overhead = small.body.size - 1;
    await api("erik", "DELETE", `${DRAFTS}/${small.body.id}`);
    const over = await api("erik", "POST", DRAFTS, {
      branch: "main",
      title: "Size probe",
      body: "x".repeat(65_537 - overhead),
    });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({
      code: "draft_too_large",
      data: { size: 65_537, limit: 65_536 },
    });
    const exact = await api("erik", "POST", DRAFTS, {
      branch: "main",
      title: "Size probe",
      body: "x".repeat(65_536 - overhead),
    });
    expect(exact.status).toBe(201);
    expect(exact.body.size).toBe(65_536);
    await api("erik", "DELETE", `${DRAFTS}/${exact.body.id}`);
  });

  it("draft limit: the 201st refused; raised by an admin limit; a group limit", async () => {
    const write = (who: string, i: number) =>
      api(who, "POST", DRAFTS, { branch: "limits", title: `Limit probe ${i}`, body: "b" });
    for (let i = 0; i < 200; i++) expect((await write("dora", i)).status).toBe(201);
    const refused = await write("dora", 200);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("draft_limit_reached");
    // No limit set yet; not for a non-admin.
    expect(
      (await api("owner", "GET", "/api/v1/admin/knowledge/limits/users/dora")).body.error.code,
    ).toBe("limit_not_found");
    expect(
      (await api("dora", "PUT", "/api/v1/admin/knowledge/limits/users/dora", { limit: 500 }))
        .status,
    ).toBe(403);
    const raised = await api("owner", "PUT", "/api/v1/admin/knowledge/limits/users/dora", {
      limit: 201,
    });
    expect(raised.status).toBe(200);
    expect(raised.body).toEqual({ kind: "user", name: "dora", limit: 201 });
    expect(
      (await api("owner", "GET", "/api/v1/admin/knowledge/limits/users/dora")).body.limit,
    ).toBe(201);
    expect((await write("dora", 200)).status).toBe(201);
    expect((await write("dora", 201)).status).toBe(409);
    // A group limit applies to its members.
    await lore(["group", "add", "small"]);
    await lore(["group", "member", "add", "small", "erik"]);
    expect(
      (await api("owner", "PUT", "/api/v1/admin/knowledge/limits/groups/small", { limit: 2 }))
        .status,
    ).toBe(200);
    expect((await write("erik", 0)).status).toBe(201);
    expect((await write("erik", 1)).status).toBe(201);
    const byGroup = await write("erik", 2);
    expect(byGroup.status).toBe(409);
    expect(byGroup.body.error.code).toBe("draft_limit_reached");
    // Removed: the default applies again.
    expect(
      (await api("owner", "DELETE", "/api/v1/admin/knowledge/limits/groups/small")).status,
    ).toBe(204);
    expect((await api("owner", "GET", "/api/v1/admin/knowledge/limits/groups/small")).status).toBe(
      404,
    );
    expect((await write("erik", 2)).status).toBe(201);
    const unknownField = await api("owner", "PUT", "/api/v1/admin/knowledge/limits/users/dora", {
      limt: 3,
    });
    expect(unknownField.body.error).toMatchObject({
      code: "unknown_field",
      data: { nearest: "limit" },
    });
  }, 120_000);

  it("lore mcp and lore draft with [server] url: drafts go to the server, the repository from the origin remote, the branch checked out", async () => {
    const config = join(home.dir, "client.toml");
    writeFileSync(config, `[server]\nurl = "${base()}"\n`);
    const env = { ...home.env, LORE_CONFIG: config, LORE_TOKEN: tokens.anna as string };
    await annaGit(["checkout", "-q", "-b", "feature/remote", "main"]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp"],
      env,
      cwd: work,
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "1" });
    await client.connect(transport);
    let id = "";
    try {
      const written = await client.callTool({
        name: "knowledge_draft",
        arguments: {
          title: "Pin the runner image",
          body: "Unpinned images broke the build twice.",
        },
      });
      expect(written.isError).toBeFalsy();
      const draft = written.structuredContent as { id: string; branch: string; author: string };
      expect(draft).toMatchObject({ branch: "feature/remote", author: "anna" });
      id = draft.id;
      const listed = await client.callTool({
        name: "knowledge_drafts",
        arguments: { branch: "feature/remote" },
      });
      expect(
        (listed.structuredContent as { items: { id: string }[] }).items.map((d) => d.id),
      ).toEqual([id]);
    } finally {
      await client.close();
    }
    // On the server, under acme/app.
    expect((await allDrafts("boris")).map((d) => d.id)).toContain(id);
    // The CLI goes to the server the same way.
    const cli = await runLore(["draft", "list", "--branch", "feature/remote", "--json"], {
      cwd: work,
      env,
    });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout).map((d: { id: string }) => d.id)).toEqual([id]);
    const rm = await runLore(["draft", "rm", id], { cwd: work, env });
    expect(rm.code).toBe(0);
    expect((await allDrafts()).map((d) => d.id)).not.toContain(id);
    await annaGit(["checkout", "-q", "main"]);
  });

  it("shown and read counters stay under the id from draft to file", async () => {
    await served.stop();
    const index = openIndex(home.env.LORE_DB as string);
    try {
      const rows = index.stats().filter((row) => row.entryId === pathOneId);
      expect(rows.find((r) => r.user === "boris")).toMatchObject({ shown: 1, read: 1 });
    } finally {
      index.close();
    }
    await restart();
  });
});
