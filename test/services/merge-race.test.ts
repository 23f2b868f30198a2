/**
 * A merge while someone pushes to the target (seed 004, "Как знание выходит наружу": the
 * server's writes obey the same compare-and-swap as a push): the real store, a real bare
 * repository, the real git adapter; the concurrent push is a real `git push` made in the
 * instant between the merge commit and the branch move.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { bareMergeGit } from "../../src/adapters/git-cli/merge-git.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import type { MergeGit } from "../../src/ports/merge-git.js";
import type { RepoRecord, ServerStore } from "../../src/ports/server-store.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { addUser } from "../../src/services/access/users.js";
import { mergeMergeRequest } from "../../src/services/merge-requests/merge-merge-request.js";
import { openMergeRequest } from "../../src/services/merge-requests/open-merge-request.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { storeEngines } from "../helpers/store-engines.js";

describe.each(storeEngines("mrrace"))("merge requests racing a moving target ($name)", (engine) => {
  let root: string;
  let store: ServerStore;
  let repo: RepoRecord;
  let bare: string;
  let work: TestRepo;
  let vera: { userId: number; user: string };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "lore-mr-race-"));
    store = await engine.open(join(root, "data"));
    repo = (
      await createRepo(
        { store, dataDir: join(root, "data"), initBare: initBareRepo },
        { fullName: "acme/app", now: Date.now() },
      )
    ).repo;
    bare = bareRepoPath(join(root, "data"), "acme/app");
    const user = await addUser(store, { name: "vera", now: Date.now() });
    vera = { userId: user.id, user: user.name };
    work = await makeRepo({ "a.txt": "a\n" });
    await work.git(["checkout", "-q", "-b", "feature"]);
    await work.commit({ "b.txt": "b\n" });
    await runGit({
      cwd: work.dir,
      args: ["push", "-q"],
      values: [bare, "main:refs/heads/main", "feature:refs/heads/feature"],
    });
  });

  afterEach(async () => {
    await store.close();
    await work.cleanup();
    await rm(root, { recursive: true, force: true });
  });

  /** Pushes one more commit onto the bare main (another user's push); returns it. */
  async function pushToMain(n: number): Promise<string> {
    await work.git(["checkout", "-q", "main"]);
    const commit = await work.commit({ [`c${n}.txt`]: `${n}\n` });
    await runGit({ cwd: work.dir, args: ["push", "-q"], values: [bare, "main:refs/heads/main"] });
    return commit;
  }

  /** The real adapter, with another push landing right before each of the first `races` moves. */
  function racedGit(races: number): { git: MergeGit; pushed: string[] } {
    const real = bareMergeGit(bare);
    const pushed: string[] = [];
    return {
      pushed,
      git: {
        ...real,
        async moveBranch(branch, next, expected) {
          if (pushed.length < races) pushed.push(await pushToMain(pushed.length + 1));
          return real.moveBranch(branch, next, expected);
        },
      },
    };
  }

  async function parentsOf(commit: string): Promise<string[]> {
    const out = await runGit({
      cwd: bare,
      args: ["rev-list", "--parents", "-n", "1"],
      values: [commit],
    });
    return out.stdout.toString("latin1").trim().split(" ").slice(1);
  }

  describe("merging while the target moves", () => {
    it("redoes the merge on the new head: the other push is kept, the merge has two parents", async () => {
      const { git, pushed } = racedGit(1);
      const lines: string[] = [];
      const deps = { store, gitOf: () => git, log: (line: string) => lines.push(line) };
      const mr = await openMergeRequest(deps, {
        repo,
        author: vera,
        source: "feature",
        target: "main",
        title: "B",
        body: "",
        origin: "machine",
      });
      expect(mr.origin).toBe("machine");
      const merged = await mergeMergeRequest(deps, { repo, number: mr.number, actor: vera });
      const feature = await git.branchHead("feature");
      expect(await git.branchHead("main")).toBe(merged.merge_commit);
      expect(await parentsOf(merged.merge_commit as string)).toEqual([pushed[0], feature]);
      expect(lines.some((line) => line.includes("moved during merge #1"))).toBe(true);
    });

    it("after 3 raced moves: merge_conflict with data.raced, the request still open, main is the other pushes'", async () => {
      const { git, pushed } = racedGit(3);
      const deps = { store, gitOf: () => git };
      const mr = await openMergeRequest(deps, {
        repo,
        author: vera,
        source: "feature",
        target: "main",
        title: "B",
        body: "",
        origin: "human",
      });
      await expect(
        mergeMergeRequest(deps, { repo, number: mr.number, actor: vera }),
      ).rejects.toMatchObject({ code: "merge_conflict", data: { raced: true } });
      expect(await git.branchHead("main")).toBe(pushed[2]);
      expect((await store.getMergeRequest(repo.id, mr.number))?.state).toBe("open");
    });

    it("a parse that fails after the merge is logged; the merge stands", async () => {
      const lines: string[] = [];
      const deps = {
        store,
        gitOf: () => bareMergeGit(bare),
        afterMerge: async () => {
          throw new Error("index locked");
        },
        log: (line: string) => lines.push(line),
      };
      const mr = await openMergeRequest(deps, {
        repo,
        author: vera,
        source: "feature",
        target: "main",
        title: "B",
        body: "",
        origin: "human",
      });
      const merged = await mergeMergeRequest(deps, { repo, number: mr.number, actor: vera });
      expect(merged.state).toBe("merged");
      expect(lines.join("\n")).toContain("index locked");
    });
  });
});
