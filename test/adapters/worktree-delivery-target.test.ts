import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeDeliveryCommit } from "../../src/adapters/git-cli/delivery-plumbing.js";
import { worktreeDeliveryTarget } from "../../src/adapters/git-cli/worktree-delivery-target.js";
import { draftFilePath } from "../../src/core/drafts/draft.js";
import type { LoreError } from "../../src/core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { deliverDrafts } from "../../src/services/drafts/deliver-drafts.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { storeDrafts } from "../helpers/store-drafts.js";

const REPO = "local/app";
const AUTHOR = { name: "Alice Doe", email: "alice@example.com", user: "alice" };

let work: TestRepo;
let root: string;
let index: EntryIndex;

beforeEach(async () => {
  work = await makeRepo({ "README.md": "hello\n", "src/a.ts": "a\n", "src/b.ts": "b\n" });
  await work.git(["checkout", "-q", "-b", "feature/x"]);
  root = await mkdtemp(join(tmpdir(), "lore-wt-deliver-"));
  index = openIndex(join(root, "index.db"));
});
afterEach(async () => {
  index.close();
  await work.cleanup();
  await rm(root, { recursive: true, force: true });
});

/** A dirty work tree: a modified tracked file, a staged change, an untracked file. */
async function makeDirty(): Promise<void> {
  await writeFile(join(work.dir, "src/a.ts"), "a modified, not staged\n");
  await writeFile(join(work.dir, "src/b.ts"), "b staged\n");
  await work.git(["add"], ["src/b.ts"]);
  await writeFile(join(work.dir, "notes.txt"), "untracked\n");
}

async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of ["README.md", "src/a.ts", "src/b.ts", "notes.txt"]) {
    out[path] = await readFile(join(work.dir, path), "utf8");
  }
  out.staged = await work.git(["diff", "--cached", "--name-status"]);
  out.unstaged = await work.git(["diff", "--name-status"]);
  return out;
}

describe("worktreeDeliveryTarget", () => {
  it("delivers into the checked-out branch without touching uncommitted work", async () => {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/x" });
    await makeDirty();
    const before = await snapshot();
    const answer = await deliverDrafts(
      { index, target: worktreeDeliveryTarget(work.dir) },
      { repo: REPO, input: { branch: "feature/x", mode: "same" }, author: AUTHOR },
    );
    expect(answer.commits).toHaveLength(1);
    expect((await work.git(["rev-parse", "HEAD"])).trim()).toBe(answer.commits[0]);
    expect(await snapshot()).toEqual(before);
    const status = await work.git(["status", "--porcelain=v1", "--untracked-files=all"]);
    expect(status.split("\n").filter(Boolean).sort()).toEqual([
      " M src/a.ts",
      "?? notes.txt",
      "M  src/b.ts",
    ]);
    for (const d of drafts) {
      expect(await readFile(join(work.dir, draftFilePath(d.id)), "utf8")).toBe(d.text);
    }
    // the staged change is still only staged, not committed
    expect(await work.git(["show", "HEAD:src/b.ts"])).toBe("b\n");
  });

  it("a delivered path already in the work tree or the index: file_exists, nothing written", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/x" });
    const taken = draftFilePath(drafts[1]?.id ?? "");
    await mkdir(join(work.dir, ".gitriver/knowledge"), { recursive: true });
    await writeFile(join(work.dir, taken), "mine\n");
    const headBefore = (await work.git(["rev-parse", "HEAD"])).trim();
    const refs = await work.git(["for-each-ref"]);
    const error = await deliverDrafts(
      { index, target: worktreeDeliveryTarget(work.dir) },
      { repo: REPO, input: { branch: "feature/x", mode: "same" }, author: AUTHOR },
    ).catch((e: unknown) => e);
    expect((error as LoreError).code).toBe("file_exists");
    expect((error as LoreError).data).toEqual({ paths: [taken] });
    expect((await work.git(["rev-parse", "HEAD"])).trim()).toBe(headBefore);
    expect(await work.git(["for-each-ref"])).toBe(refs);
    expect(await readFile(join(work.dir, taken), "utf8")).toBe("mine\n");
    expect(index.drafts.get(REPO, drafts[0]?.id ?? "")?.delivered).toBeUndefined();
    // staged only (not in the work tree) counts too
    await work.git(["add"], [taken]);
    await rm(join(work.dir, taken));
    const again = await deliverDrafts(
      { index, target: worktreeDeliveryTarget(work.dir) },
      { repo: REPO, input: { branch: "feature/x", mode: "same" }, author: AUTHOR },
    ).catch((e: unknown) => e);
    expect((again as LoreError).code).toBe("file_exists");
  });

  it("a local delivery killed after the branch moved: the next one brings the index and work tree up, no new commit", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/x" });
    await makeDirty();
    const before = await snapshot();
    const base = (await work.git(["rev-parse", "HEAD"])).trim();
    // what a killed delivery leaves: the commit made and the branch moved, nothing else
    const killed = await writeDeliveryCommit(work.dir, {
      branch: "feature/x",
      expectedHead: base,
      files: drafts.map((d) => ({ path: draftFilePath(d.id), content: d.text })),
      message: "Knowledge from feature/x: 2 entries",
      author: AUTHOR,
      committer: { name: "Lore", email: "lore@lore.invalid" },
      at: Date.now(),
    });
    if (!("commit" in killed)) throw new Error("raced");
    expect(await work.git(["status", "--porcelain=v1"])).toContain("D  .gitriver/knowledge/");
    const answer = await deliverDrafts(
      { index, target: worktreeDeliveryTarget(work.dir) },
      { repo: REPO, input: { branch: "feature/x", mode: "same" }, author: AUTHOR },
    );
    expect(answer.delivered).toEqual(drafts.map((d) => d.id));
    expect((await work.git(["rev-parse", "HEAD"])).trim()).toBe(killed.commit);
    expect(await work.git(["rev-list", "--count", `${base}..HEAD`])).toBe("1\n");
    expect(await snapshot()).toEqual(before);
    const status = await work.git(["status", "--porcelain=v1", "--untracked-files=all"]);
    expect(status.split("\n").filter(Boolean).sort()).toEqual([
      " M src/a.ts",
      "?? notes.txt",
      "M  src/b.ts",
    ]);
    for (const d of drafts) {
      expect(await readFile(join(work.dir, draftFilePath(d.id)), "utf8")).toBe(d.text);
      expect(index.drafts.get(REPO, d.id)?.delivered?.commit).toBe(killed.commit);
    }
  });

  it("path 2 into a knowledge/ branch leaves the checked-out branch, index and work tree alone", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/x" });
    await makeDirty();
    const before = await snapshot();
    const headBefore = (await work.git(["rev-parse", "HEAD"])).trim();
    const answer = await deliverDrafts(
      { index, target: worktreeDeliveryTarget(work.dir) },
      { repo: REPO, input: { branch: "feature/x", mode: "separate", label: "l1" }, author: AUTHOR },
    );
    expect(answer.branch).toBe("knowledge/feature/x-l1");
    expect((await work.git(["rev-parse", "HEAD"])).trim()).toBe(headBefore);
    expect((await work.git(["rev-parse", "knowledge/feature/x-l1^"])).trim()).toBe(work.initial);
    expect(await snapshot()).toEqual(before);
    for (const d of drafts) {
      expect(await work.git(["show", `knowledge/feature/x-l1:${draftFilePath(d.id)}`])).toBe(
        d.text,
      );
    }
  });
});
