import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bareDeliveryTarget } from "../../../src/adapters/git-cli/bare-delivery-target.js";
import { runGit } from "../../../src/adapters/git-cli/run-git.js";
import { type DraftRecord, draftFilePath } from "../../../src/core/drafts/draft.js";
import { type EntryIndex, openIndex } from "../../../src/index/entry-index.js";
import { deliverDrafts } from "../../../src/services/drafts/deliver-drafts.js";
import { gitBlobSha } from "../../../src/services/indexing/index-folder.js";
import { makeBareClone, makeRepo } from "../../helpers/make-repo.js";
import { storeDrafts } from "../../helpers/store-drafts.js";

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "deliver-child.mjs");
const REPO = "acme/app";
const BRANCH = "feature/kill";

let root: string;
let bare: string;
let cleanBare: () => Promise<void>;
let dbFile: string;
let index: EntryIndex;

const git = async (args: string[], values: string[] = []) =>
  (await runGit({ cwd: bare, args, values })).stdout.toString("utf8");

beforeEach(async () => {
  const work = await makeRepo({ "README.md": "hello\n" });
  await work.git(["branch", BRANCH]);
  const clone = await makeBareClone(work.dir);
  await work.cleanup();
  bare = clone.dir;
  cleanBare = clone.cleanup;
  root = await mkdtemp(join(tmpdir(), "lore-deliver-kill-"));
  dbFile = join(root, "index.db");
  index = openIndex(dbFile);
});
afterEach(async () => {
  index.close();
  await cleanBare();
  await rm(root, { recursive: true, force: true });
});

/** Starts a delivery in a child process and kills it with SIGKILL after `ms` (or lets it end). */
async function runAndKill(ms: number): Promise<"killed" | "finished"> {
  const child = spawn(process.execPath, [CHILD, dbFile, bare, REPO, BRANCH], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const ended = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  const code = await ended;
  clearTimeout(timer);
  if (child.signalCode === "SIGKILL") return "killed";
  if (code !== 0) throw new Error(`the delivery child failed: ${stderr}`);
  return "finished";
}

/** Every commit of the branch since `base`: the paths it added and the count its message states. */
async function commitsSince(base: string): Promise<{ added: string[]; stated: number }[]> {
  const revs = (await git(["rev-list", "--reverse"], [`${base}..refs/heads/${BRANCH}`]))
    .split("\n")
    .filter(Boolean);
  const out: { added: string[]; stated: number }[] = [];
  for (const rev of revs) {
    const names = await git(
      ["diff-tree", "-r", "--no-commit-id", "--name-only", "--diff-filter=A"],
      [rev],
    );
    const subject = await git(["log", "-1", "--format=%s"], [rev]);
    out.push({
      added: names.split("\n").filter(Boolean),
      stated: Number(/: (\d+) entr/.exec(subject)?.[1] ?? Number.NaN),
    });
  }
  return out;
}

describe("a delivery killed with SIGKILL", () => {
  it("at any moment: the next delivery loses no draft, delivers none twice, commits are whole", async () => {
    const base = (await git(["rev-parse"], [`refs/heads/${BRANCH}`])).trim();
    const body = `Kill lesson.\n\n${"k".repeat(58 * 1024)}\n`;
    const all: DraftRecord[] = [];
    const target = bareDeliveryTarget(bare);
    const outcomes: string[] = [];
    // The kill moments are fractions of how long one whole delivery takes on this machine
    // (measured first, by a run left to finish), so they land inside the deliveries however
    // fast or loaded the machine is.
    const fractions = [Number.POSITIVE_INFINITY, 0.05, 0.15, 0.3, 0.5, 0.7, 0.9];
    let whole = 0;
    for (const fraction of fractions) {
      // 185 drafts of ~58 KB: over 10 MB, so two commits per run.
      all.push(...storeDrafts(index, 185, { repo: REPO, branch: BRANCH, body }));
      const started = performance.now();
      const outcome = await runAndKill(
        fraction === Number.POSITIVE_INFINITY
          ? 600_000
          : Math.max(20, Math.round(whole * fraction)),
      );
      if (fraction === Number.POSITIVE_INFINITY) {
        expect(outcome).toBe("finished");
        whole = performance.now() - started;
      } else outcomes.push(outcome);
      await sleep(300); // a git child the dead process left behind finishes alone
      await deliverDrafts(
        { index, target },
        {
          repo: REPO,
          input: { branch: BRANCH, mode: "same" },
          author: { name: "Bob", email: "bob@example.com", user: "bob" },
        },
      );
      const commits = await commitsSince(base);
      for (const commit of commits) expect(commit.added).toHaveLength(commit.stated);
      const added = commits.flatMap((c) => c.added).sort();
      expect(new Set(added).size).toBe(added.length);
      expect(added).toEqual(all.map((d) => draftFilePath(d.id)).sort());
      const byCommit = new Map<string, DraftRecord[]>();
      for (const d of all) {
        const mark = index.drafts.get(REPO, d.id)?.delivered;
        expect(mark?.branch).toBe(BRANCH);
        const commit = mark?.commit ?? "";
        byCommit.set(commit, [...(byCommit.get(commit) ?? []), d]);
      }
      for (const [commit, drafts] of byCommit) {
        const blobs = await target.pathsAt(
          commit,
          drafts.map((d) => draftFilePath(d.id)),
        );
        for (const d of drafts) {
          expect(blobs.get(draftFilePath(d.id))).toBe(gitBlobSha(Buffer.from(d.text, "utf8")));
        }
      }
    }
    // the kill moments did hit running deliveries
    expect(outcomes.filter((o) => o === "killed").length).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
