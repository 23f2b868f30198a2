/**
 * Cancellation stops work: a real SDK client cancels a request (it sends
 * `notifications/cancelled`), the server aborts the request's signal, and the federation
 * tools start no further forge read after it; the next call answers normally. The forge is
 * the real local forge, wrapped only to count (and slow down) its reads.
 */
import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend, ReadOptions } from "../../src/ports/forge.js";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { connectFederation, type FederationClient, jsonOf } from "./federation-client.js";

const PROJECTS = 30;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Counts the page reads the federation asks of the forge, and those after the request's abort. */
class Counter {
  started = 0;
  afterAbort = 0;
  atAbort: number | null = null;
  private readonly watched = new WeakSet<AbortSignal>();
  reset() {
    this.started = 0;
    this.afterAbort = 0;
    this.atAbort = null;
  }
  wrap(forge: Backend): Backend {
    const count = async (options: ReadOptions | undefined) => {
      const signal = options?.signal;
      if (signal !== undefined && !this.watched.has(signal)) {
        this.watched.add(signal);
        if (signal.aborted) this.atAbort ??= this.started;
        else
          signal.addEventListener("abort", () => {
            this.atAbort ??= this.started;
          });
      }
      this.started++;
      if (signal?.aborted === true) this.afterAbort++;
      await sleep(15); // a slow forge, so the cancel lands mid-question
    };
    return {
      listUserRepos: () => forge.listUserRepos(),
      getRawFile: async (owner, repo, path, ref, options) => {
        await count(options);
        return forge.getRawFile(owner, repo, path, ref, options);
      },
      getFileWithSha: (owner, repo, path, ref, options) =>
        forge.getFileWithSha(owner, repo, path, ref, options),
      commitFile: (args) => forge.commitFile(args),
    };
  }
}

const index = (p: number) =>
  `## Concepts\n\n${Array.from({ length: 5 }, (_, i) => `- [page-${i}](concepts/page-${i}.md) — Page ${i} of ${p}`).join("\n")}\n`;

let forge: TestForge;
let fed: FederationClient;
let cacheFile: string;
const counter = new Counter();
const names = Array.from({ length: PROJECTS }, (_, p) => `project-${p}`);

beforeAll(async () => {
  const repos: Record<string, Record<string, string>> = {};
  for (const [p, name] of names.entries()) {
    const files: Record<string, string> = { ".wiki/index.md": index(p) };
    for (let i = 0; i < 5; i++)
      files[`.wiki/concepts/page-${i}.md`] = `Body ${i} of project ${p}.\n`;
    repos[name] = files;
  }
  forge = await makeLocalForge(repos);
  cacheFile = join(forge.root, "..", `${forge.root.split("/").pop()}-cancel-cache.json`);
  fed = await connectFederation({
    forgeRoot: forge.root,
    cacheFile,
    wrapForge: (f) => counter.wrap(f),
  });
  expect((await fed.call("projects_sync")).isError).toBeFalsy();
}, 120_000);

afterAll(async () => {
  await fed.close();
  await forge.cleanup();
  await rm(cacheFile, { force: true });
});

describe("a cancelled request starts no further work", () => {
  it("ask_projects over 30 projects: no page read starts after the cancel; the next call answers", async () => {
    counter.reset();
    const controller = new AbortController();
    const call = fed.client.callTool(
      { name: "knowledge_ask_projects", arguments: { query: "page", projects: names } },
      undefined,
      { signal: controller.signal },
    );
    while (counter.started < 10) await sleep(5);
    controller.abort();
    await expect(call).rejects.toThrow();
    await sleep(400); // long enough for the rest of the 150 reads, had they gone on
    expect(counter.atAbort).not.toBeNull();
    expect(counter.afterAbort).toBe(0);
    expect(counter.started).toBe(counter.atAbort);
    expect(counter.started).toBeLessThan(PROJECTS * 5);

    counter.reset();
    const next = await fed.call("knowledge_ask_projects", { query: "page", projects: names });
    expect(next.isError).toBeFalsy();
    const answer = jsonOf(next) as { results: { matches: { snippet: string }[] }[] };
    expect(answer.results).toHaveLength(PROJECTS);
    expect(answer.results.every((r) => r.matches.length === 5)).toBe(true);
    expect(answer.results[29]?.matches[4]?.snippet).toBe("Body 4 of project 29.");
    expect(counter.started).toBe(PROJECTS * 5);
  });

  it("projects_sync: no repository read starts after the cancel, the cache is left as it was", async () => {
    const before = await readFile(cacheFile, "utf8");
    const mtime = (await stat(cacheFile)).mtimeMs;
    counter.reset();
    const controller = new AbortController();
    const call = fed.client.callTool({ name: "projects_sync", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    while (counter.started < 6) await sleep(5);
    controller.abort();
    await expect(call).rejects.toThrow();
    await sleep(400);
    expect(counter.afterAbort).toBe(0);
    expect(counter.started).toBe(counter.atAbort);
    expect(counter.started).toBeLessThan(PROJECTS * 2);
    expect(await readFile(cacheFile, "utf8")).toBe(before);
    expect((await stat(cacheFile)).mtimeMs).toBe(mtime);
    const again = await fed.call("projects_sync");
    expect(again.isError).toBeFalsy();
    expect(jsonOf(again).projects).toBe(PROJECTS);
  });
});
