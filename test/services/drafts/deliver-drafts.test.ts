import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bareDeliveryTarget } from "../../../src/adapters/git-cli/bare-delivery-target.js";
import { runGit } from "../../../src/adapters/git-cli/run-git.js";
import {
  DELIVERY_BATCH_BYTES,
  type DraftRecord,
  draftFilePath,
} from "../../../src/core/drafts/draft.js";
import { LoreError } from "../../../src/core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../../src/index/entry-index.js";
import { sqliteIndexStore } from "../../../src/index/index-store/sqlite-index-store.js";
import { hostedHealDeps } from "../../../src/main/compose-hook.js";
import type { DeliveryTarget } from "../../../src/ports/delivery-target.js";
import type { StoreLocks } from "../../../src/ports/index-store.js";
import { type DeliveryDeps, deliverDrafts } from "../../../src/services/drafts/deliver-drafts.js";
import { updateRepoIndex } from "../../../src/services/push/heal-index.js";
import { makeBareClone, makeRepo } from "../../helpers/make-repo.js";
import { storeDraft, storeDrafts } from "../../helpers/store-drafts.js";

const REPO = "acme/app";
const AUTHOR = { name: "Alice Doe", email: "alice@example.com", user: "alice" };
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

let root: string;
let bare: string;
let cleanBare: () => Promise<void>;
let index: EntryIndex;
let dbFile: string;

async function git(args: string[], values: string[] = [], paths: string[] = []): Promise<string> {
  return (await runGit({ cwd: bare, args, values, paths })).stdout.toString("utf8");
}
const head = async (branch: string) => (await git(["rev-parse"], [`refs/heads/${branch}`])).trim();
const show = (rev: string, path: string) => git(["cat-file", "blob"], [`${rev}:${path}`]);

/** Paths added by each commit of `branch` since `base`, oldest first. */
async function addedPerCommit(branch: string, base: string): Promise<string[][]> {
  const revs = (await git(["rev-list", "--reverse"], [`${base}..refs/heads/${branch}`]))
    .split("\n")
    .filter(Boolean);
  const out: string[][] = [];
  for (const rev of revs) {
    const names = await git(
      ["diff-tree", "-r", "--no-commit-id", "--name-only", "--diff-filter=A", "--root"],
      [rev],
    );
    out.push(names.split("\n").filter(Boolean));
  }
  return out;
}

function deps(extra: Partial<DeliveryDeps> = {}): DeliveryDeps {
  return { index, target: bareDeliveryTarget(bare), now: () => NOW, ...extra };
}

beforeEach(async () => {
  const work = await makeRepo({ "README.md": "hello\n" });
  await work.git(["checkout", "-q", "-b", "feature/login"]);
  await work.commit({ "src/login.ts": "export {};\n" }, "login");
  await work.git(["checkout", "-q", "main"]);
  const clone = await makeBareClone(work.dir);
  await work.cleanup();
  bare = clone.dir;
  cleanBare = clone.cleanup;
  root = await mkdtemp(join(tmpdir(), "lore-deliver-"));
  dbFile = join(root, "index.db");
  index = openIndex(dbFile);
});
afterEach(async () => {
  index.close();
  await cleanBare();
  await rm(root, { recursive: true, force: true });
});

describe("deliverDrafts, path 1 (same branch)", () => {
  it("commits the branch's drafts in one commit, author the caller, committer Lore, text byte for byte", async () => {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/login" });
    storeDraft(index, { repo: REPO, branch: "other" });
    const before = await head("feature/login");
    const answer = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "same" },
      author: AUTHOR,
    });
    expect(answer.branch).toBe("feature/login");
    expect(answer.commits).toHaveLength(1);
    expect(answer.merge_request).toBeUndefined();
    expect(answer.delivered).toEqual(drafts.map((d) => d.id));
    const commit = answer.commits[0] as string;
    expect(await head("feature/login")).toBe(commit);
    expect((await git(["rev-parse"], [`${commit}^`])).trim()).toBe(before);
    expect(await git(["log", "-1", "--format=%an <%ae>|%cn|%ct"], [commit])).toBe(
      `Alice Doe <alice@example.com>|Lore|${NOW / 1000}\n`,
    );
    for (const d of drafts) expect(await show(commit, draftFilePath(d.id))).toBe(d.text);
    expect(await addedPerCommit("feature/login", before)).toEqual([
      drafts.map((d) => draftFilePath(d.id)),
    ]);
    // the parent's files stay
    expect(await show(commit, "src/login.ts")).toBe("export {};\n");
    for (const d of drafts) {
      expect(index.drafts.get(REPO, d.id)?.delivered).toEqual({
        branch: "feature/login",
        commit,
        at: NOW,
      });
    }
    // delivered drafts never go into another batch
    const again = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "same" },
      author: AUTHOR,
    });
    expect(again).toEqual({ commits: [], branch: "feature/login", delivered: [] });
    expect(await head("feature/login")).toBe(commit);
  });

  it("refuses a branch that does not exist with branch_not_found, pointing at separate", async () => {
    storeDraft(index, { repo: REPO, branch: "gone" });
    const error = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "gone", mode: "same" },
      author: AUTHOR,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoreError);
    expect((error as LoreError).code).toBe("branch_not_found");
    expect(JSON.stringify((error as LoreError).data)).toContain("separate");
  });

  it("delivered straight into the default branch: the drafts are removed at once, no merge request", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "main" });
    const opened: unknown[] = [];
    const written: string[] = [];
    const answer = await deliverDrafts(
      deps({
        openMergeRequest: async (mr) => {
          opened.push(mr);
          return 1;
        },
        afterWrite: async (branch, commit) => {
          written.push(`${branch} ${commit}`);
        },
      }),
      { repo: REPO, input: { branch: "main", mode: "same" }, author: AUTHOR },
    );
    expect(answer.commits).toHaveLength(1);
    expect(written).toEqual([`main ${answer.commits[0]}`]);
    expect(opened).toEqual([]);
    for (const d of drafts) expect(index.drafts.get(REPO, d.id)).toBeUndefined();
    for (const d of drafts) expect(await show("refs/heads/main", draftFilePath(d.id))).toBe(d.text);
  });

  it("into the default branch: the drafts stay, marked delivered, while indexDefault says the index does not hold the files", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "main" });
    const asked: string[] = [];
    const answer = await deliverDrafts(
      deps({
        indexDefault: async (branch) => {
          asked.push(branch);
          return false;
        },
      }),
      { repo: REPO, input: { branch: "main", mode: "same" }, author: AUTHOR },
    );
    expect(asked).toEqual(["main"]);
    for (const d of drafts) {
      expect(index.drafts.get(REPO, d.id)?.delivered).toMatchObject({
        branch: "main",
        commit: answer.commits[0],
      });
    }
    const again = await deliverDrafts(deps({ indexDefault: async () => true }), {
      repo: REPO,
      input: { branch: "main", mode: "same" },
      author: AUTHOR,
    });
    expect(again.delivered).toEqual([]);
  });
});

describe("deliverDrafts into the default branch, parsed like a push", () => {
  it("the drafts become file entries under the same id, their counters kept", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "main" });
    const id = drafts[0]?.id ?? "";
    index.countShown(
      "bob",
      [id].map((id: string) => ({ repo: REPO, id })),
      NOW,
    );
    index.countRead("bob", { repo: REPO, id: id }, NOW);
    const counters = index.stats("bob");
    expect(counters).toHaveLength(1);
    const heal = hostedHealDeps(index);
    const answer = await deliverDrafts(
      deps({
        afterWrite: async (branch, commit) => {
          expect(branch).toBe("main");
          expect(await head("main")).toBe(commit);
          await updateRepoIndex(heal, { fullName: REPO, dir: bare, defaultBranch: "main" });
        },
      }),
      { repo: REPO, input: { branch: "main", mode: "same" }, author: AUTHOR },
    );
    expect(answer.commits).toHaveLength(1);
    for (const d of drafts) {
      expect(index.drafts.get(REPO, d.id)).toBeUndefined();
      const entry = index.getEntry(d.id);
      expect(entry?.repo).toBe(REPO);
      expect(entry?.path).toBe(draftFilePath(d.id));
    }
    expect(index.stats("bob")).toEqual(counters);
  });
});

describe("deliverDrafts, path 2 (separate branch)", () => {
  it("creates knowledge/<branch>-<label> from the default branch and opens a merge request", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/login" });
    const opened: { source: string; target: string; title: string; body: string }[] = [];
    const answer = await deliverDrafts(
      deps({
        openMergeRequest: async (mr) => {
          opened.push(mr);
          return 7;
        },
      }),
      { repo: REPO, input: { branch: "feature/login", mode: "separate" }, author: AUTHOR },
    );
    const branch = "knowledge/feature/login-20260102-030405";
    expect(answer).toEqual({
      commits: [await head(branch)],
      branch,
      merge_request: 7,
      delivered: drafts.map((d) => d.id),
    });
    expect((await git(["rev-parse"], [`${branch}^`])).trim()).toBe(await head("main"));
    expect(opened).toHaveLength(1);
    expect(opened[0]?.source).toBe(branch);
    expect(opened[0]?.target).toBe("main");
    for (const d of drafts) {
      expect(opened[0]?.body).toContain(`Lesson ${d.id}: restart the worker after a deploy.`);
      expect(index.drafts.get(REPO, d.id)?.delivered).toEqual({
        branch,
        commit: answer.commits[0],
        at: NOW,
        mergeRequest: 7,
      });
    }
    // the label given: an existing branch is refused
    const error = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "20260102-030405" },
      author: AUTHOR,
    }).catch((e: unknown) => e);
    expect((error as LoreError).code).toBe("branch_exists");
  });

  it("branch deleted → the drafts are deliverable again; merge request closed → too", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/login" });
    const first = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "one" },
      author: AUTHOR,
    });
    expect(first.delivered).toHaveLength(2);
    await git(["update-ref", "-d"], ["refs/heads/knowledge/feature/login-one"]);
    for (const d of drafts) expect(index.drafts.get(REPO, d.id)?.text).toBe(d.text);
    const second = await deliverDrafts(deps({ openMergeRequest: async () => 3 }), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "two" },
      author: AUTHOR,
    });
    expect(second.delivered).toEqual(drafts.map((d) => d.id));
    expect(second.merge_request).toBe(3);
    // request 3 still open, its branch there: nothing to deliver
    const closed = new Set<number>();
    const isStale = async (delivery: { mergeRequest?: number }) =>
      delivery.mergeRequest !== undefined && closed.has(delivery.mergeRequest);
    const third = await deliverDrafts(deps({ isStale }), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "three" },
      author: AUTHOR,
    });
    expect(third.delivered).toEqual([]);
    closed.add(3);
    const fourth = await deliverDrafts(deps({ isStale, openMergeRequest: async () => 4 }), {
      repo: REPO,
      input: { branch: "feature/login", mode: "separate", label: "four" },
      author: AUTHOR,
    });
    expect(fourth.delivered).toEqual(drafts.map((d) => d.id));
    expect(index.drafts.get(REPO, drafts[0]?.id ?? "")?.delivered?.mergeRequest).toBe(4);
  });
});

describe("deliverDrafts, branch protection and races", () => {
  it("a protected branch: refused with branch_protected, nothing written (refs and objects unchanged)", async () => {
    const drafts = storeDrafts(index, 2, { repo: REPO, branch: "feature/login" });
    const refs = await git(["for-each-ref"]);
    const objects = await git(["count-objects", "-v"]);
    const checked: string[] = [];
    const error = await deliverDrafts(
      deps({
        checkWrite: async (branch) => {
          checked.push(branch);
          throw new LoreError("branch_protected", { branch, reason: "no push", reason_ru: "нет" });
        },
      }),
      { repo: REPO, input: { branch: "feature/login", mode: "same" }, author: AUTHOR },
    ).catch((e: unknown) => e);
    expect((error as LoreError).code).toBe("branch_protected");
    expect(checked).toEqual(["feature/login"]);
    expect(await git(["for-each-ref"])).toBe(refs);
    expect(await git(["count-objects", "-v"])).toBe(objects);
    for (const d of drafts) expect(index.drafts.get(REPO, d.id)?.delivered).toBeUndefined();
  });

  it("two racing deliveries on one branch (two index connections): every draft delivered once, each file once", async () => {
    const drafts = storeDrafts(index, 5, { repo: REPO, branch: "feature/login" });
    const base = await head("feature/login");
    const second = openIndex(dbFile);
    try {
      // B writes only after A's commit landed, on the head it read before: a sure race.
      let aWrote!: () => void;
      const aDone = new Promise<void>((resolve) => {
        aWrote = resolve;
      });
      let raced = 0;
      const real = bareDeliveryTarget(bare);
      const targetA: DeliveryTarget = {
        ...real,
        writeCommit: async (c) => {
          const out = await real.writeCommit(c);
          aWrote();
          return out;
        },
      };
      const targetB: DeliveryTarget = {
        ...real,
        writeCommit: async (c) => {
          await aDone;
          const out = await real.writeCommit(c);
          if ("raced" in out) raced++;
          return out;
        },
      };
      const input = { branch: "feature/login", mode: "same" as const };
      const [a, b] = await Promise.all([
        deliverDrafts(
          { index, target: targetA, now: () => NOW },
          { repo: REPO, input, author: AUTHOR },
        ),
        deliverDrafts(
          { index: second, target: targetB, now: () => NOW },
          { repo: REPO, input, author: AUTHOR },
        ),
      ]);
      expect(raced).toBe(1);
      expect([...a.delivered, ...b.delivered].sort()).toEqual(drafts.map((d) => d.id));
      expect(a.commits.length + b.commits.length).toBe(1);
      const added = (await addedPerCommit("feature/login", base)).flat();
      expect(added.sort()).toEqual(drafts.map((d) => draftFilePath(d.id)).sort());
      for (const d of drafts)
        expect(second.drafts.get(REPO, d.id)?.delivered?.commit).toBe(await head("feature/login"));
    } finally {
      second.close();
    }
  });

  it("two separate deliveries racing for one knowledge/ branch: one writes it, the other gets branch_exists", async () => {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/login" });
    const second = openIndex(dbFile);
    try {
      let aWrote!: () => void;
      const aDone = new Promise<void>((resolve) => {
        aWrote = resolve;
      });
      const real = bareDeliveryTarget(bare);
      const targetA: DeliveryTarget = {
        ...real,
        writeCommit: async (c) => {
          const out = await real.writeCommit(c);
          aWrote();
          return out;
        },
      };
      const targetB: DeliveryTarget = {
        ...real,
        writeCommit: async (c) => {
          await aDone;
          return real.writeCommit(c);
        },
      };
      const opened: string[] = [];
      const openMergeRequest = async (mr: { source: string }) => {
        opened.push(mr.source);
        return opened.length;
      };
      const input = { branch: "feature/login", mode: "separate" as const, label: "same-label" };
      const [a, b] = await Promise.allSettled([
        deliverDrafts(
          { index, target: targetA, now: () => NOW, openMergeRequest },
          { repo: REPO, input, author: AUTHOR },
        ),
        deliverDrafts(
          { index: second, target: targetB, now: () => NOW, openMergeRequest },
          { repo: REPO, input, author: AUTHOR },
        ),
      ]);
      expect(a.status).toBe("fulfilled");
      expect(a.status === "fulfilled" ? a.value.delivered : []).toEqual(drafts.map((d) => d.id));
      expect(b.status === "rejected" ? (b.reason as LoreError).code : "none").toBe("branch_exists");
      expect(opened).toEqual(["knowledge/feature/login-same-label"]);
    } finally {
      second.close();
    }
  });

  /**
   * Two `separate` deliveries of one branch with different labels, A through `locksA` and
   * B through `locksB` on `indexB`: A writes only once B is under way — B asked for the lock
   * (with it), or B found drafts to deliver and checks its right to write (it would, without
   * the lock). Under one lock the drafts go out once.
   */
  async function deliverTwiceUnderLocks(
    locksA: StoreLocks,
    locksB: StoreLocks,
    indexB: EntryIndex,
  ) {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/login" });
    let bUnderWay!: () => void;
    const bStarted = new Promise<void>((resolve) => {
      bUnderWay = resolve;
    });
    let asked = 0;
    const watch = (locks: StoreLocks): StoreLocks => ({
      withDeliveryLock(repo, branch, work) {
        asked += 1;
        if (asked === 2) bUnderWay();
        return locks.withDeliveryLock(repo, branch, work);
      },
    });
    const real = bareDeliveryTarget(bare);
    const targetA: DeliveryTarget = {
      ...real,
      writeCommit: async (c) => {
        await bStarted;
        return real.writeCommit(c);
      },
    };
    const opened: string[] = [];
    const openMergeRequest = async (mr: { source: string }) => {
      opened.push(mr.source);
      return opened.length;
    };
    const a = deliverDrafts(
      { index, target: targetA, now: () => NOW, openMergeRequest, locks: watch(locksA) },
      {
        repo: REPO,
        input: { branch: "feature/login", mode: "separate", label: "a" },
        author: AUTHOR,
      },
    );
    const b = deliverDrafts(
      {
        index: indexB,
        target: real,
        now: () => NOW,
        openMergeRequest,
        locks: watch(locksB),
        checkWrite: async () => bUnderWay(),
      },
      {
        repo: REPO,
        input: { branch: "feature/login", mode: "separate", label: "b" },
        author: AUTHOR,
      },
    );
    const [first, second] = await Promise.all([a, b]);
    expect(first.delivered).toEqual(drafts.map((d) => d.id));
    expect(second).toEqual({ commits: [], branch: "knowledge/feature/login-b", delivered: [] });
    expect(opened).toEqual(["knowledge/feature/login-a"]);
  }

  it("two separate deliveries of one branch with different labels under the delivery lock: the drafts go out once", async () => {
    const locks = sqliteIndexStore(index).locks;
    await deliverTwiceUnderLocks(locks, locks, index);
  });

  it("the same from two servers on one data folder (two connections, one lock folder): once", async () => {
    const lockDir = join(dirname(dbFile), "locks");
    const second = openIndex(dbFile);
    try {
      await deliverTwiceUnderLocks(
        sqliteIndexStore(index, { lockDir }).locks,
        sqliteIndexStore(second, { lockDir }).locks,
        second,
      );
    } finally {
      second.close();
    }
  });

  it("two truly concurrent deliveries, drafts added meanwhile: no file lost, none doubled", async () => {
    const base = await head("feature/login");
    const second = openIndex(dbFile);
    try {
      const all: DraftRecord[] = storeDrafts(index, 4, { repo: REPO, branch: "feature/login" });
      const input = { branch: "feature/login", mode: "same" as const };
      const runs = [
        deliverDrafts(deps(), { repo: REPO, input, author: AUTHOR }),
        deliverDrafts(
          { index: second, target: bareDeliveryTarget(bare), now: () => NOW },
          { repo: REPO, input, author: AUTHOR },
        ),
      ];
      all.push(...storeDrafts(second, 3, { repo: REPO, branch: "feature/login" }));
      runs.push(
        deliverDrafts(
          { index: second, target: bareDeliveryTarget(bare) },
          { repo: REPO, input, author: AUTHOR },
        ),
      );
      await Promise.all(runs);
      const last = await deliverDrafts(deps(), { repo: REPO, input, author: AUTHOR });
      const added = (await addedPerCommit("feature/login", base)).flat().sort();
      expect(added).toEqual(all.map((d) => draftFilePath(d.id)).sort());
      expect(new Set(added).size).toBe(added.length);
      expect(last.commits).toEqual([]);
      for (const d of all) expect(index.drafts.get(REPO, d.id)?.delivered).toBeDefined();
    } finally {
      second.close();
    }
  });
});

describe("deliverDrafts, recovery of a killed delivery", () => {
  it("a draft whose file sits at the head with the same blob is marked delivered there, not written again", async () => {
    const drafts = storeDrafts(index, 3, { repo: REPO, branch: "feature/login" });
    const target = bareDeliveryTarget(bare);
    const base = await head("feature/login");
    // a delivery killed after its commit landed, before it marked anything
    const killed = await target.writeCommit({
      branch: "feature/login",
      expectedHead: base,
      files: drafts.slice(0, 2).map((d) => ({ path: draftFilePath(d.id), content: d.text })),
      message: "Knowledge from feature/login: 2 entries",
      author: AUTHOR,
      committer: { name: "Lore", email: "lore@lore.invalid" },
      at: NOW,
    });
    if (!("commit" in killed)) throw new Error("raced");
    const answer = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "same" },
      author: AUTHOR,
    });
    expect(answer.delivered).toEqual(drafts.map((d) => d.id));
    expect(answer.commits).toHaveLength(1);
    expect(await addedPerCommit("feature/login", base)).toEqual([
      drafts.slice(0, 2).map((d) => draftFilePath(d.id)),
      [draftFilePath(drafts[2]?.id ?? "")],
    ]);
    expect(index.drafts.get(REPO, drafts[0]?.id ?? "")?.delivered?.commit).toBe(killed.commit);
    expect(index.drafts.get(REPO, drafts[2]?.id ?? "")?.delivered?.commit).toBe(answer.commits[0]);
  });
});

describe("deliverDrafts, the 10 MB batch", () => {
  it("12 MB of drafts in one branch → two commits, all files present, each commit's added files ≤ 10 MB", async () => {
    const body = `Big lesson.\n\n${"a".repeat(60 * 1024)}\n`;
    const drafts = storeDrafts(index, 200, { repo: REPO, branch: "feature/login", body });
    const total = drafts.reduce((sum, d) => sum + d.size, 0);
    expect(total).toBeGreaterThan(12 * 1000 * 1000);
    const base = await head("feature/login");
    const answer = await deliverDrafts(deps(), {
      repo: REPO,
      input: { branch: "feature/login", mode: "same" },
      author: AUTHOR,
    });
    expect(answer.commits).toHaveLength(2);
    expect(answer.delivered).toEqual(drafts.map((d) => d.id));
    const perCommit = await addedPerCommit("feature/login", base);
    expect(perCommit).toHaveLength(2);
    const sizeOf = new Map(drafts.map((d) => [draftFilePath(d.id), d.size]));
    for (const paths of perCommit) {
      const bytes = paths.reduce((sum, p) => sum + (sizeOf.get(p) ?? Number.NaN), 0);
      expect(bytes).toBeLessThanOrEqual(DELIVERY_BATCH_BYTES);
    }
    expect(perCommit.flat().sort()).toEqual([...sizeOf.keys()].sort());
    const tip = await head("feature/login");
    const listed = await git(["ls-tree", "-r", "--name-only"], [tip], [".gitriver/knowledge"]);
    expect(listed.split("\n").filter(Boolean)).toHaveLength(200);
    for (const [i, d] of drafts.entries()) {
      const commit = i < (perCommit[0]?.length ?? 0) ? answer.commits[0] : answer.commits[1];
      expect(index.drafts.get(REPO, d.id)?.delivered?.commit).toBe(commit);
    }
  });
});
