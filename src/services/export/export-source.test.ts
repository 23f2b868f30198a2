import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../../../test/helpers/make-repo.js";
import { openGitRepo } from "../../adapters/git-cli/git-cli-repo.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { localDraftLimit } from "../drafts/draft-limit.js";
import { writeDraft } from "../drafts/write-draft.js";
import { indexRepository } from "../indexing/index-repo.js";
import { exportSource } from "./export-source.js";

const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const C = "01921938-b600-7344-b7bb-b0d96211fc5a";

const FILES = {
  ".gitriver/knowledge/ops/rollback.md": `---\nid: ${A}\norigin: human\ncontract:\n  - mechanism: on_query\n    params:\n      words: ["rollback"]\nsummary: Helm, never a redeploy\n---\n\nRoll back with helm rollback.\n`,
  ".gitriver/knowledge/migrations.md": `---\nid: ${B}\ncontract:\n  - mechanism: on_tool\n    params:\n      name: run_migration\n---\n\nRun migrations with a lock timeout.\n`,
  ".gitriver/knowledge/unreachable.md": `---\nid: ${C}\ncontract: []\n---\n\nNever surfaces by itself.\n`,
};

let repo: TestRepo;
let dbDir: string;
let index: EntryIndex;

beforeAll(async () => {
  repo = await makeRepo(FILES);
  dbDir = await mkdtemp(join(tmpdir(), "lore-export-db-"));
  index = openIndex(join(dbDir, "index.db"));
  const git = await openGitRepo(repo.dir);
  try {
    await indexRepository({ index, repo: git, repoName: "acme/app" });
  } finally {
    await git.close();
  }
  // A draft of the repository: visible to recall at once, but unverified — never exported.
  await writeDraft(
    {
      index,
      limitFor: localDraftLimit,
      mintId: () => "0190f5a4-3b2c-7d10-8a11-00000000d1af",
    },
    {
      repo: "acme/app",
      author: "anna",
      input: {
        branch: "main",
        title: "A draft about rollbacks",
        body: "Not read by anyone yet.",
        words: ["rollback"],
      },
    },
  );
});

afterAll(async () => {
  index?.close();
  await repo?.cleanup();
  if (dbDir) await rm(dbDir, { recursive: true, force: true });
});

describe("exportSource", () => {
  it("gives the reachable entries whole, by path, bodies read from git; counts the rest", () => {
    const source = exportSource(index, "acme/app");
    expect(source.unreachable).toBe(1);
    expect(source.drafts).toBe(1);
    expect(source.entries.map((item) => [item.path, item.entry.id, item.summary])).toEqual([
      [".gitriver/knowledge/migrations.md", B, "Run migrations with a lock timeout."],
      [".gitriver/knowledge/ops/rollback.md", A, "Helm, never a redeploy"],
    ]);
    const rollback = source.entries[1]?.entry;
    expect(rollback).toEqual({
      id: A,
      origin: "human",
      contract: [{ mechanism: "on_query", params: { words: ["rollback"] } }],
      links: [],
      summary: "Helm, never a redeploy",
      unknownKeys: {},
      body: "Roll back with helm rollback.\n",
    });
  });

  it("gives nothing for a repository the index does not hold", () => {
    expect(exportSource(index, "acme/other")).toEqual({ entries: [], unreachable: 0, drafts: 0 });
  });
});
