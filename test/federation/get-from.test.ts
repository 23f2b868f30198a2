/**
 * Seed 001, Task 4: the four `knowledge.get_from` tests in equivalent form (real forge,
 * real cache, real MCP client), a slug that tries to leave `.wiki/`, and seed 001 Task 5's
 * smoke: the tool list at runtime holds both new tools.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { connectFederation, type FederationClient } from "./federation-client.js";

const body = "---\ntitle: Foo\n---\n\nfoo body content";

let forge: TestForge;
let fed: FederationClient;
let cacheFile: string;

beforeAll(async () => {
  forge = await makeLocalForge({
    foo: { ".wiki/index.md": "# Wiki Index\n", ".wiki/concepts/foo.md": body, "secret.md": "no" },
  });
  cacheFile = `${forge.root}-cache.json`;
  fed = await connectFederation({ forgeRoot: forge.root, cacheFile });
  expect((await fed.call("projects_sync")).isError).toBeFalsy();
});

afterAll(async () => {
  await fed.close();
  await forge.cleanup();
  await rm(cacheFile, { force: true });
});

describe("knowledge.get_from (seed 001 Task 4, real forge and cache)", () => {
  it("returns full page body for a known project + slug", async () => {
    const r = await fed.call("knowledge_get_from", { project: "foo", slug: "concepts/foo" });
    expect(r.isError).toBeFalsy();
    expect(r.content[0]?.text).toBe(body);
  });

  it("returns error when project not in cache", async () => {
    const r = await fed.call("knowledge_get_from", { project: "ghost", slug: "concepts/x" });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("unknown project");
    expect(r.content[0]?.text).toContain("project_unknown");
  });

  it("returns error when page does not exist", async () => {
    const r = await fed.call("knowledge_get_from", { project: "foo", slug: "concepts/missing" });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("page not found: foo/.wiki/concepts/missing.md");
  });

  it("returns error when backend not configured", async () => {
    const off = await connectFederation({ forgeRoot: null, cacheFile });
    try {
      const r = await off.call("knowledge_get_from", { project: "foo", slug: "concepts/x" });
      expect(r.isError).toBe(true);
      expect(r.content[0]?.text).toContain("disabled");
    } finally {
      await off.close();
    }
  });

  it("refuses a slug that would leave .wiki/", async () => {
    const r = await fed.call("knowledge_get_from", { project: "foo", slug: "../secret" });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("invalid_slug");
  });
});

describe("smoke (seed 001 Task 5.3): the tool list at runtime", () => {
  it("includes both new tools, in both name styles, with descriptions pointing to tasks.create", async () => {
    const { tools } = await fed.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["knowledge_ask_projects", "knowledge_get_from"]));
    const ask = tools.find((t) => t.name === "knowledge_ask_projects");
    expect(ask?.description).toContain("tasks_create");
    expect(ask?.annotations?.readOnlyHint).toBe(true);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const dotted = await connectFederation({
      forgeRoot: forge.root,
      cacheFile,
      toolNames: "dotted",
    });
    try {
      const listed = (await dotted.client.listTools()).tools;
      expect(listed.map((t) => t.name)).toEqual(
        expect.arrayContaining(["knowledge.ask_projects", "knowledge.get_from", "tasks.create"]),
      );
      expect(listed.find((t) => t.name === "knowledge.ask_projects")?.description).toContain(
        "tasks.create(",
      );
    } finally {
      await dotted.close();
    }
  });

  it("snapshots each federation tool's schema", async () => {
    const { tools } = await fed.client.listTools();
    const federation = [
      "knowledge_search",
      "knowledge_get",
      "knowledge_ask_projects",
      "knowledge_get_from",
      "knowledge_ingest",
      "knowledge_suggest_promote",
      "knowledge_promote",
      "tasks_create",
      "projects_sync",
      "projects_status",
    ];
    expect(tools.map((t) => t.name).filter((n) => federation.includes(n))).toEqual(federation);
    for (const tool of tools.filter((t) => federation.includes(t.name))) {
      expect(tool.description).not.toMatch(/knowledge\.\w|tasks\.\w|projects\.\w/);
      await expect(JSON.stringify(tool, null, 2)).toMatchFileSnapshot(
        `../../src/mcp/__toolsnaps__/${tool.name}.snap`,
      );
    }
  });
});
