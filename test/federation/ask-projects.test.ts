/**
 * Seed 001, Task 3: the nine `knowledge.ask_projects` tests in equivalent form — a real
 * local forge of git repositories, a real sync into a real cache file, a real MCP client —
 * plus partial success, the malformed-index branch and `ё` ≡ `е` (seed 000 "Error branches").
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeLocalForge, type TestForge } from "../helpers/make-forge.js";
import { connectFederation, type FederationClient, jsonOf } from "./federation-client.js";

const sampleIndex = `# Wiki Index

## Concepts

- [yarn-on-windows](concepts/yarn-on-windows.md) — Yarn on Windows
- [other](concepts/other.md) — Other Concept

## Raw

- [pdf-dump](raw/pdf-dump.md) — Heavy PDF
`;
const wideIndex =
  "# Wiki Index\n\n## Concepts\n\n- [a](concepts/a.md) — A\n- [b](concepts/b.md) — B\n- [c](concepts/c.md) — C\n";
const yarnPage = "---\ntitle: Yarn on Windows\n---\n\nyarn install on windows is fiddly";

let forge: TestForge;
let fed: FederationClient;
let cacheFile: string;

beforeAll(async () => {
  forge = await makeLocalForge({
    foo: {
      ".wiki/index.md": sampleIndex,
      ".wiki/concepts/yarn-on-windows.md": yarnPage,
      ".wiki/concepts/other.md": "other things",
      ".wiki/raw/pdf-dump.md": "pdf about pdf",
    },
    "no-wiki": { ".tasks/STATUS.md": "| slug | status | next |\n|-|-|-|\n| a | todo | b |\n" },
    wide: {
      ".wiki/index.md": wideIndex,
      ".wiki/concepts/a.md": "",
      ".wiki/concepts/b.md": "",
      ".wiki/concepts/c.md": "",
    },
    gone: { ".wiki/index.md": sampleIndex },
    broken: {
      ".wiki/index.md": "# Wiki Index\n\n## Concepts\n\n- [x](https://example.com) — External\n",
    },
    ru: {
      ".wiki/index.md":
        "# Wiki Index\n\n## Entities\n\n- [Ёлка (дерево)](entities/yolka-(tree).md) — Ёлка как символ\n",
      ".wiki/entities/yolka-(tree).md": "# Ёлка\n\nНовогодняя Ёлка стоит в зале до Крещения.\n",
    },
  });
  cacheFile = join(forge.root, "..", `${forge.root.split("/").pop()}-cache.json`);
  fed = await connectFederation({ forgeRoot: forge.root, cacheFile });
  const synced = await fed.call("projects_sync");
  expect(synced.isError).toBeFalsy();
  // A repository the cache knows whose pages can no longer be fetched.
  await rm(forge.dir("gone"), { recursive: true, force: true });
  // A repository on the forge the cache does not know yet.
  await forge.add("late", { ".wiki/index.md": sampleIndex });
});

afterAll(async () => {
  await fed.close();
  await forge.cleanup();
  await rm(cacheFile, { force: true });
});

const ask = async (args: Record<string, unknown>) => {
  const result = await fed.call("knowledge_ask_projects", args);
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toEqual(jsonOf(result));
  return jsonOf(result) as {
    asked_projects: string[];
    results: { project: string; matches?: Record<string, string>[]; error?: string }[];
    next_action_hint: string;
  };
};

describe("knowledge.ask_projects (seed 001 Task 3, real forge and cache)", () => {
  it("returns matches across listed projects with snippets", async () => {
    const parsed = await ask({ query: "yarn", projects: ["foo"] });
    expect(parsed.asked_projects).toEqual(["foo"]);
    expect(parsed.results).toHaveLength(1);
    expect(parsed.results[0]?.project).toBe("foo");
    expect(parsed.results[0]?.matches).toHaveLength(1);
    const match = parsed.results[0]?.matches?.[0];
    expect(match?.slug).toBe("concepts/yarn-on-windows");
    expect(match?.type).toBe("concepts");
    expect(match?.title).toBe("Yarn on Windows");
    expect(match?.snippet).toContain("yarn");
    expect(match?.snippet).not.toContain("title:");
  });

  it('reports "no wiki" for projects without wiki_index', async () => {
    const parsed = await ask({ query: "anything", projects: ["no-wiki"] });
    expect(parsed.results).toEqual([
      { project: "no-wiki", error: "no wiki — repo has no .wiki/index.md" },
    ]);
  });

  it('reports "unknown project" when project not in cache', async () => {
    const parsed = await ask({ query: "x", projects: ["ghost", "late"] });
    expect(parsed.results).toEqual([
      { project: "ghost", error: "unknown project — run sync first" },
      { project: "late", error: "unknown project — run sync first" },
    ]);
  });

  it("excludes raw type by default", async () => {
    const parsed = await ask({ query: "pdf", projects: ["foo"] });
    expect(parsed.results[0]?.matches).toEqual([]);
  });

  it("includes raw when explicitly asked", async () => {
    const parsed = await ask({ query: "pdf", projects: ["foo"], types: ["raw"] });
    expect(parsed.results[0]?.matches).toHaveLength(1);
    expect(parsed.results[0]?.matches?.[0]?.slug).toBe("raw/pdf-dump");
    expect(parsed.results[0]?.matches?.[0]?.snippet).toContain("pdf");
  });

  it("respects limit per project", async () => {
    const parsed = await ask({ query: "", projects: ["wide"], limit: 2 });
    expect(parsed.results[0]?.matches?.map((m) => m.slug)).toEqual(["concepts/a", "concepts/b"]);
  });

  it('marks snippet as "(fetch failed)" when live fetch throws', async () => {
    const parsed = await ask({ query: "yarn", projects: ["gone"] });
    expect(parsed.results[0]?.matches?.[0]?.snippet).toBe("(fetch failed)");
    expect(parsed.results[0]?.matches?.[0]?.slug).toBe("concepts/yarn-on-windows");
    expect(parsed.results[0]?.matches?.[0]?.title).toBe("Yarn on Windows");
  });

  it("returns error when backend not configured", async () => {
    const off = await connectFederation({ forgeRoot: null, cacheFile });
    try {
      const r = await off.call("knowledge_ask_projects", { query: "x", projects: ["foo"] });
      expect(r.isError).toBe(true);
      expect(r.content[0]?.text).toContain("disabled");
      expect(r.content[0]?.text).toContain("federation_disabled");
      expect(r.content[0]?.text).toContain("[forge]");
      // The other tools keep working.
      const recall = await off.call("knowledge_recall", { query: "x" });
      expect(recall.isError).toBeFalsy();
    } finally {
      await off.close();
    }
  });

  it("next_action_hint mentions both knowledge.get_from and tasks.create", async () => {
    const parsed = await ask({ query: "x", projects: ["foo"] });
    expect(parsed.next_action_hint).toContain("knowledge_get_from");
    expect(parsed.next_action_hint).toContain("tasks_create");
    // The hint follows `lang`, English by default.
    expect(parsed.next_action_hint).toBe(
      "knowledge_get_from(project, slug) for the full text; tasks_create(target_project, body) if the knowledge is not written down",
    );
    const dotted = await connectFederation({
      forgeRoot: forge.root,
      cacheFile,
      toolNames: "dotted",
      lang: "ru",
    });
    try {
      const r = jsonOf(
        await dotted.call("knowledge.ask_projects", { query: "x", projects: ["foo"] }),
      );
      // Seed 000 "Output", word for word, with the seeds' dotted names, in Russian.
      expect(r.next_action_hint).toBe(
        "knowledge.get_from(project, slug) для полного текста; tasks.create(target_project, body) если знание не оформлено",
      );
    } finally {
      await dotted.close();
    }
  });
});

describe("knowledge.ask_projects: more of seed 000's branches", () => {
  it("partial success: one project fails, the others answer, in the order asked", async () => {
    const parsed = await ask({ query: "yarn", projects: ["ghost", "foo", "no-wiki", "gone"] });
    expect(parsed.asked_projects).toEqual(["ghost", "foo", "no-wiki", "gone"]);
    expect(parsed.results.map((r) => r.project)).toEqual(["ghost", "foo", "no-wiki", "gone"]);
    expect(parsed.results[0]?.error).toBe("unknown project — run sync first");
    expect(parsed.results[1]?.matches?.[0]?.snippet).toContain("yarn install");
    expect(parsed.results[2]?.error).toBe("no wiki — repo has no .wiki/index.md");
    expect(parsed.results[3]?.matches?.[0]?.snippet).toBe("(fetch failed)");
  });

  it("an index with entry lines but none readable is `wiki index malformed: <reason>`", async () => {
    const parsed = await ask({ query: "", projects: ["broken"] });
    expect(parsed.results[0]?.error).toMatch(/^wiki index malformed: line 5: /);
  });

  it("matches slug and title case-insensitively with ё ≡ е (the `Ёлка (дерево)` index line)", async () => {
    const parsed = await ask({ query: "ЕЛКА", projects: ["ru"] });
    expect(parsed.results[0]?.matches).toEqual([
      {
        slug: "entities/yolka-(tree)",
        type: "entities",
        title: "Ёлка как символ",
        snippet: "# Ёлка Новогодняя Ёлка стоит в зале до Крещения.",
      },
    ]);
  });

  it("refuses a limit out of 1–20 with the invalid_limit code", async () => {
    const r = await fed.call("knowledge_ask_projects", {
      query: "x",
      projects: ["foo"],
      limit: 21,
    });
    expect(r.isError).toBe(true);
    expect(r.content[0]?.text).toContain("invalid_limit");
  });
});
