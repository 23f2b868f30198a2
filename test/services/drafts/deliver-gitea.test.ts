import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type GiteaDelivery,
  giteaDelivery,
  LORE_MACHINE_LABEL,
} from "../../../src/adapters/gitea/gitea-delivery-target.js";
import { GiteaForge } from "../../../src/adapters/gitea/gitea-forge.js";
import { draftFilePath } from "../../../src/core/drafts/draft.js";
import { type EntryIndex, openIndex } from "../../../src/index/entry-index.js";
import { deliverDrafts } from "../../../src/services/drafts/deliver-drafts.js";
import { type FakeGitea, startFakeGitea } from "../../helpers/fake-gitea.js";
import { storeDraft, storeDrafts } from "../../helpers/store-drafts.js";

/**
 * deliverDrafts over the Gitea target end to end (seed 004, "Как знание выходит наружу";
 * the "For repositories on a Gitea server"): real HTTP on 127.0.0.1 to the fake
 * Gitea, a real bare repository behind it, a real SQLite index holding the drafts.
 */
const REPO = "alice/proj";
const AUTHOR = { name: "Alice Doe", email: "alice@example.com", user: "alice" };
const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);

let gitea: FakeGitea;
let root: string;
let index: EntryIndex;
let delivery: GiteaDelivery;

const git = (args: string[], values: string[] = []) => gitea.git("proj", args, values);
const changeFiles = () =>
  gitea.requests.filter((r) => r.method === "POST" && r.path === "/repos/alice/proj/contents");

beforeEach(async () => {
  gitea = await startFakeGitea({ user: "alice" });
  await gitea.addRepo("proj", { "README.md": "hello\n" });
  root = await mkdtemp(join(tmpdir(), "lore-deliver-gitea-"));
  index = openIndex(join(root, "index.db"));
  const forge = new GiteaForge({ url: gitea.url, token: gitea.token });
  delivery = giteaDelivery({ forge, owner: "alice", repo: "proj" });
});
afterEach(async () => {
  index.close();
  await gitea.close();
  await rm(root, { recursive: true, force: true });
});

const deps = () => ({
  index,
  target: delivery.target,
  openMergeRequest: delivery.openMergeRequest,
  checkWrite: delivery.checkWrite,
  isStale: delivery.isStale,
  now: () => NOW,
});

describe("deliverDrafts into a Gitea repository", () => {
  it("path 2: one ChangeFiles commit on knowledge/<branch>-<label>, a pull request marked lore:machine", async () => {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/login" });
    storeDraft(index, { repo: REPO, branch: "other" });
    const main = await git(["rev-parse"], ["main"]);
    const answer = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "l1" },
      author: AUTHOR,
    });
    const branch = "knowledge/feature/login-l1";
    const head = await git(["rev-parse"], [branch]);
    expect(answer).toEqual({
      commits: [head],
      branch,
      merge_request: 1,
      delivered: drafts.map((d) => d.id),
    });
    expect(changeFiles()).toHaveLength(1);
    expect(await git(["rev-parse"], [`${head}^`])).toBe(main);
    expect(await git(["rev-parse"], ["main"])).toBe(main);
    expect(
      (await git(["diff-tree", "-r", "--name-only", "--no-commit-id"], [main, head])).split("\n"),
    ).toEqual(drafts.map((d) => draftFilePath(d.id)));
    for (const draft of drafts) {
      const blob = await gitea.git(
        "proj",
        ["cat-file", "blob"],
        [`${head}:${draftFilePath(draft.id)}`],
      );
      // git() trims; the stored text ends with one newline.
      expect(`${blob}\n`).toBe(draft.text);
    }
    expect(await git(["log", "-1", "--format=%an <%ae>|%cn"], [head])).toBe(
      "Alice Doe <alice@example.com>|Lore",
    );
    const [pr] = gitea.pulls("proj");
    expect(pr).toMatchObject({
      number: 1,
      state: "open",
      head: { ref: branch },
      base: { ref: "main" },
      title: "Knowledge from feature/login: 3 entries",
    });
    expect(pr?.labels.map((l) => l.name)).toEqual([LORE_MACHINE_LABEL]);
    for (const draft of drafts)
      expect(index.drafts.get(REPO, draft.id)?.delivered).toEqual({
        branch,
        commit: head,
        at: NOW,
        mergeRequest: 1,
      });
  });

  it("a pull request closed unmerged makes the drafts deliverable again, with a new pull request", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/x" });
    const input = { branch: "feature/x", mode: "separate" as const, label: "a" };
    await deliverDrafts(deps(), { repo: REPO, input, author: AUTHOR });
    const again = await deliverDrafts(deps(), {
      repo: REPO,
      input: { ...input, label: "b" },
      author: AUTHOR,
    });
    expect(again.delivered).toEqual([]);
    gitea.closePull("proj", 1);
    const third = await deliverDrafts(deps(), {
      repo: REPO,
      input: { ...input, label: "c" },
      author: AUTHOR,
    });
    expect(third).toMatchObject({ branch: "knowledge/feature/x-c", merge_request: 2 });
    expect(third.delivered).toEqual(drafts.map((d) => d.id));
    expect(gitea.pulls("proj")[1]?.labels.map((l) => l.name)).toEqual([LORE_MACHINE_LABEL]);
  });

  it("path 1 into a protected branch: branch_protected, nothing written, drafts untouched", async () => {
    await delivery.target.writeCommit({
      branch: "feature/y",
      expectedHead: undefined,
      from: await git(["rev-parse"], ["main"]),
      files: [{ path: "src/y.ts", content: "export {};\n" }],
      message: "feature",
      author: AUTHOR,
      committer: AUTHOR,
      at: NOW,
    });
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/y" });
    gitea.protectBranch("proj", "feature/y");
    const before = await git(["rev-parse"], ["feature/y"]);
    const calls = changeFiles().length;
    await expect(
      deliverDrafts(deps(), {
        repo: REPO,
        input: { branch: "feature/y", mode: "same" },
        author: AUTHOR,
      }),
    ).rejects.toMatchObject({ code: "branch_protected" });
    expect(await git(["rev-parse"], ["feature/y"])).toBe(before);
    expect(changeFiles()).toHaveLength(calls);
    for (const draft of drafts) expect(index.drafts.get(REPO, draft.id)?.delivered).toBeUndefined();
  });

  it("path 1 into the default branch: one commit, the drafts are removed, no pull request", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "main" });
    const answer = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "main", mode: "same" },
      author: AUTHOR,
    });
    expect(answer.commits).toEqual([await git(["rev-parse"], ["main"])]);
    expect(answer.merge_request).toBeUndefined();
    expect(gitea.pulls("proj")).toEqual([]);
    for (const draft of drafts) expect(index.drafts.get(REPO, draft.id)).toBeUndefined();
  });
});
