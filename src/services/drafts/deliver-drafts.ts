/**
 * Delivering drafts (seed 004, "Как знание выходит наружу", "Что происходит с черновиком",
 * "Пределы"): the drafts accumulated in one branch become files `.gitriver/knowledge/<id>.md`
 * (the draft's stored text, byte for byte) in one commit per batch of at most 10 MB —
 * path 1 into the branch itself, path 2 into `knowledge/<branch>-<label>` made from the
 * default branch with its own merge request.
 */
import { deliveryBatches } from "../../core/drafts/delivery-batches.js";
import {
  type DeliverAnswer,
  type DeliverInput,
  type DraftDelivery,
  type DraftRecord,
  draftFilePath,
} from "../../core/drafts/draft.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import {
  checkBranchName,
  MR_BODY_MAX_BYTES,
  MR_TITLE_MAX,
} from "../../core/merge-requests/merge-rules.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { DeliveryTarget, GitPerson } from "../../ports/delivery-target.js";
import type { DraftStore } from "../../ports/draft-store.js";
import type { StoreLocks } from "../../ports/index-store.js";
import { gitBlobSha } from "../indexing/index-folder.js";
import { sqliteDraftStore } from "./sqlite-draft-store.js";

/** The committer of every delivery commit (the author is the caller). */
export const LORE_COMMITTER: GitPerson = { name: "Lore", email: "lore@lore.invalid" };

/** How many times one batch is rebuilt after the branch moved under it. */
export const DELIVERY_RACE_RETRIES = 20;

/** What {@link deliverDrafts} works with. */
export interface DeliveryDeps {
  /** The index holding the drafts (`index.drafts`). */
  index: EntryIndex;
  /**
   * The drafts (the port: PostgreSQL on a team server with `[server] database`).
   * Default: the index's own (`sqliteDraftStore(index)`).
   */
  drafts?: DraftStore;
  /** The repository the files are committed to. */
  target: DeliveryTarget;
  /** The clock, ms since the epoch. Default: `Date.now`. */
  now?: () => number;
  /** Branch protection: throws LoreError `branch_protected` when the caller may not write `branch`. Default: allowed. */
  checkWrite?: (branch: string) => Promise<void>;
  /** Opens the merge request of a separate branch; returns its number. Default: none is opened. */
  openMergeRequest?: (mr: {
    source: string;
    target: string;
    title: string;
    body: string;
  }) => Promise<number>;
  /** Whether a past delivery no longer holds its draft (its merge request closed, its branch gone). Default: its branch no longer exists. */
  isStale?: (delivery: DraftDelivery) => Promise<boolean>;
  /** Called after each commit (the team server parses it like a push). Default: nothing. */
  afterWrite?: (branch: string, commit: string) => Promise<void>;
  /**
   * Brings the index up to the default branch after a delivery into it, before its drafts
   * are removed, so the delivered entries never drop out of recall; returns whether the
   * index now holds the delivered files. When it returns false the drafts stay (marked
   * delivered) until an index takes in their files, which removes them. Default: true (the
   * team server's `afterWrite` parsed each commit like a push).
   */
  indexDefault?: (branch: string) => Promise<boolean>;
  /**
   * The store's locks (the team server): the whole delivery runs under the delivery lock of
   * the drafts' branch, so two deliveries of one branch — in one server, or in two over one
   * PostgreSQL — run one after the other and the second finds the drafts delivered. Default:
   * no lock (a race is still safe for files: see {@link deliverDrafts}).
   */
  locks?: StoreLocks;
}

/** The caller: the commits' author, and the user name. */
export type DeliveryAuthor = GitPerson & { user: string };

/** `YYYYMMDD-HHMMSS` (UTC) of a time in ms: the default label of a separate branch. */
export function deliveryLabel(at: number): string {
  const iso = new Date(at).toISOString(); // 2026-12-01T13:05:23.000Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
}

/** The branch of path 2: `knowledge/<branch>-<label>`. */
export function separateBranchName(branch: string, label: string): string {
  return `knowledge/${branch}-${label}`;
}

function checkInput(input: DeliverInput): void {
  if (input.mode !== "same" && input.mode !== "separate") {
    throw new LoreError("invalid_input", {
      reason: "mode must be “same” or “separate”",
      reason_ru: "mode должен быть «same» или «separate»",
    });
  }
  if (input.label !== undefined && input.mode !== "separate") {
    throw new LoreError("invalid_input", {
      reason:
        "a label names a separate branch (knowledge/<branch>-<label>): give it with mode separate",
      reason_ru:
        "метка называет отдельную ветку (knowledge/<ветка>-<метка>): укажите её вместе с mode separate",
    });
  }
  if (input.label !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(input.label)) {
    throw new LoreError("invalid_input", {
      reason: "a label is 1–100 letters, digits, “.”, “_” or “-”, starting with a letter or digit",
      reason_ru: "метка — 1–100 букв, цифр, «.», «_» или «-», в начале буква или цифра",
    });
  }
}

/** The summary of a draft for the merge request's body (its id when it does not parse). */
function summaryOf(draft: DraftRecord): string {
  return parseEntry(draft.text, { mode: "lenient" }).value?.summary ?? draft.id;
}

/** Where a delivery goes and what it starts from. */
interface Destination {
  branch: string;
  /** The default branch's head a new separate branch starts from. */
  base: string | undefined;
  /** Path 2: the branch is made by this delivery's first commit. */
  creates: boolean;
}

async function destination(
  target: DeliveryTarget,
  repo: string,
  input: DeliverInput,
  at: number,
): Promise<Destination> {
  if (input.mode === "same") {
    if ((await target.branchHead(input.branch)) === undefined) {
      throw new LoreError(
        "branch_not_found",
        { branch: input.branch, repo },
        { data: { hint: "deliver with mode “separate” into a knowledge/ branch" } },
      );
    }
    return { branch: input.branch, base: undefined, creates: false };
  }
  const branch = separateBranchName(input.branch, input.label ?? deliveryLabel(at));
  if ((await target.branchHead(branch)) !== undefined) {
    throw new LoreError("branch_exists", { branch, repo });
  }
  return { branch, base: await target.branchHead(await target.defaultBranch()), creates: true };
}

/** The drafts of the branch still to deliver: never delivered, or their delivery is stale. */
async function pendingDrafts(deps: DeliveryDeps, drafts: DraftRecord[]): Promise<DraftRecord[]> {
  const stale = new Map<string, Promise<boolean>>();
  const isStale =
    deps.isStale ??
    (async (delivery: DraftDelivery) =>
      (await deps.target.branchHead(delivery.branch)) === undefined);
  const pending: DraftRecord[] = [];
  for (const draft of drafts) {
    const delivery = draft.delivered;
    if (delivery === undefined) {
      pending.push(draft);
      continue;
    }
    const key = `${delivery.branch}\n${delivery.commit}\n${delivery.mergeRequest ?? ""}`;
    let answer = stale.get(key);
    if (answer === undefined) {
      answer = isStale(delivery);
      stale.set(key, answer);
    }
    if (await answer) pending.push(draft);
  }
  return pending;
}

/**
 * Refuses, before anything is written, a separate delivery whose merge request could not be
 * opened afterwards (its drafts would stay marked delivered into a branch with no request):
 * a branch name the merge request refuses, or no default branch to merge into.
 *
 * @throws LoreError `invalid_input`, `branch_not_found` (the default branch).
 */
async function checkMergeRequestPossible(
  target: DeliveryTarget,
  repo: string,
  dest: Destination,
): Promise<void> {
  checkBranchName(dest.branch, "branch");
  if (dest.base === undefined) {
    const branch = await target.defaultBranch();
    throw new LoreError("branch_not_found", { branch, repo }, { data: { branch } });
  }
}

/**
 * The merge request's title and body, always within the limits a merge request takes
 * ({@link MR_TITLE_MAX} characters, {@link MR_BODY_MAX_BYTES} bytes): a long branch name is
 * cut in the title, a listing past the body limit ends with how many entries it leaves out.
 */
export function mergeRequestText(
  branch: string,
  entries: DraftRecord[],
): { title: string; body: string } {
  const count = `${entries.length} ${entries.length === 1 ? "entry" : "entries"}`;
  const room = MR_TITLE_MAX - `Knowledge from : ${count}`.length;
  const shown = branch.length <= room ? branch : `${branch.slice(0, Math.max(0, room - 1))}…`;
  const lines: string[] = [];
  let bytes = 0;
  // Room for the closing line naming the rest.
  const budget = MR_BODY_MAX_BYTES - 100;
  for (const draft of entries) {
    const line = `- ${summaryOf(draft)} (${draft.id})`;
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + size > budget) break;
    lines.push(line);
    bytes += size;
  }
  if (lines.length < entries.length) {
    lines.push(`- … and ${entries.length - lines.length} more`);
  }
  return { title: `Knowledge from ${shown}: ${count}`, body: lines.join("\n") };
}

/** State of one run, shared by its batches. */
interface Run {
  deps: DeliveryDeps;
  /** The drafts (`deps.drafts`, or the index's own). */
  drafts: DraftStore;
  repo: string;
  author: DeliveryAuthor;
  at: number;
  dest: Destination;
  commits: string[];
  delivered: string[];
  /** Drafts stored at a head that holds them, per commit (for the merge request mark). */
  marks: Map<string, string[]>;
}

/**
 * Drafts whose file sits at `head` with the very blob of their text (a killed or racing
 * delivery wrote it): marked delivered at `head` and left out of the write. A draft some
 * other delivery already marked for this branch is not reported again.
 */
async function settleWritten(run: Run, head: string, batch: DraftRecord[]): Promise<DraftRecord[]> {
  const paths = batch.map((draft) => draftFilePath(draft.id));
  const present = await run.deps.target.pathsAt(head, paths);
  const rest: DraftRecord[] = [];
  const settled: string[] = [];
  for (const draft of batch) {
    const sha = present.get(draftFilePath(draft.id));
    if (sha === undefined || sha !== gitBlobSha(Buffer.from(draft.text, "utf8"))) {
      rest.push(draft);
      continue;
    }
    const now = await run.drafts.get(run.repo, draft.id);
    if (now === undefined) continue; // removed meanwhile: its file arrived where it belongs
    if (
      now.delivered?.branch === run.dest.branch &&
      now.delivered.commit !== draft.delivered?.commit
    ) {
      continue; // another delivery marked it
    }
    settled.push(draft.id);
  }
  if (settled.length > 0) {
    await run.drafts.markDelivered(run.repo, settled, {
      branch: run.dest.branch,
      commit: head,
      at: run.at,
    });
    run.delivered.push(...settled);
    run.marks.set(head, [...(run.marks.get(head) ?? []), ...settled]);
  }
  return rest;
}

function commitMessage(branch: string, drafts: DraftRecord[]): string {
  const lines = drafts.map((draft) => `- ${summaryOf(draft).replace(/\s+/g, " ").slice(0, 200)}`);
  const noun = drafts.length === 1 ? "entry" : "entries";
  return `Knowledge from ${branch}: ${drafts.length} ${noun}\n\n${lines.join("\n")}\n`;
}

/** Writes one batch, rebuilding it when the branch moved meanwhile (bounded). */
async function deliverBatch(run: Run, batch: DraftRecord[]): Promise<void> {
  const { deps } = run;
  let rest = batch;
  for (let attempt = 0; attempt <= DELIVERY_RACE_RETRIES; attempt++) {
    const head = await deps.target.branchHead(run.dest.branch);
    if (run.dest.creates && run.commits.length === 0 && head !== undefined) {
      // Another delivery made the same separate branch meanwhile: never join its request.
      throw new LoreError("branch_exists", { branch: run.dest.branch, repo: run.repo });
    }
    if (head !== undefined) rest = await settleWritten(run, head, rest);
    if (rest.length === 0) return;
    const write = await deps.target.writeCommit({
      branch: run.dest.branch,
      expectedHead: head,
      ...(head === undefined && run.dest.base !== undefined ? { from: run.dest.base } : {}),
      files: rest.map((draft) => ({ path: draftFilePath(draft.id), content: draft.text })),
      message: commitMessage(run.dest.branch, rest),
      author: { name: run.author.name, email: run.author.email },
      committer: LORE_COMMITTER,
      at: run.at,
    });
    if (!("commit" in write)) continue;
    const ids = rest.map((draft) => draft.id);
    await run.drafts.markDelivered(run.repo, ids, {
      branch: run.dest.branch,
      commit: write.commit,
      at: run.at,
    });
    run.commits.push(write.commit);
    run.delivered.push(...ids);
    run.marks.set(write.commit, ids);
    await deps.afterWrite?.(run.dest.branch, write.commit);
    return;
  }
  throw new LoreError("git_failed", {
    reason: `${run.dest.branch} kept moving during the delivery (${DELIVERY_RACE_RETRIES + 1} attempts); try again`,
  });
}

/**
 * Delivers the drafts of `args.input.branch` (seed 004): those never delivered and those
 * whose delivery is stale (`deps.isStale`), as files `.gitriver/knowledge/<id>.md` holding
 * each draft's text byte for byte, one commit per batch of at most 10 MB (author: the
 * caller; committer: {@link LORE_COMMITTER}), each written by compare-and-swap on the
 * branch (a race rebuilds the batch on the new head, so no file is lost or doubled).
 *
 * - mode `same`: into the branch itself; mode `separate`: into `knowledge/<branch>-<label>`
 *   created from the default branch's head (label default: the time, `YYYYMMDD-HHMMSS`
 *   UTC), then `deps.openMergeRequest` (source: that branch, target: the default branch,
 *   a body listing the entries' summaries); its number is in the answer and every mark.
 * - Each delivered draft is marked delivered (branch, commit, time, merge request) after
 *   its commit; `deps.afterWrite` runs after each commit. Delivered straight into the
 *   default branch, the drafts are removed once `deps.indexDefault` brought the index up to
 *   the new commit (at once by default: their file is where it belongs; the entry id and
 *   its counters stay) and no merge request is opened.
 * - A draft whose file sits at the branch head already with the same blob (a killed
 *   delivery wrote it) is marked delivered at that head, not written again.
 * - Nothing to deliver: `{commits: [], delivered: []}`, nothing written, no branch made.
 * - With `deps.locks`, under the delivery lock of `args.input.branch`: a second delivery
 *   of the branch waits and then finds its drafts delivered (without it, two `separate`
 *   deliveries with different labels racing could each take the same drafts).
 *
 * @throws LoreError `invalid_input` (mode, label, a bad branch name), `branch_not_found`
 *   (mode same and the branch does not exist: use separate), `branch_exists` (the separate
 *   branch exists: give another label), `branch_protected` (from `deps.checkWrite`, before
 *   anything is written), `file_exists` (local work tree), `git_failed`, and what
 *   `deps.openMergeRequest` throws (the commits stay; the drafts stay marked delivered).
 */
export function deliverDrafts(
  deps: DeliveryDeps,
  args: { repo: string; input: DeliverInput; author: DeliveryAuthor },
): Promise<DeliverAnswer> {
  const run = () => deliverUnlocked(deps, args);
  return deps.locks === undefined
    ? run()
    : deps.locks.withDeliveryLock(args.repo, args.input.branch, run);
}

/** {@link deliverDrafts} once its lock, if any, is held. */
async function deliverUnlocked(
  deps: DeliveryDeps,
  args: { repo: string; input: DeliverInput; author: DeliveryAuthor },
): Promise<DeliverAnswer> {
  checkInput(args.input);
  const at = (deps.now ?? Date.now)();
  const dest = await destination(deps.target, args.repo, args.input, at);
  const drafts = deps.drafts ?? sqliteDraftStore(deps.index);
  const pending = await pendingDrafts(deps, await drafts.ofBranch(args.repo, args.input.branch));
  if (pending.length === 0) return { commits: [], branch: dest.branch, delivered: [] };
  await deps.checkWrite?.(dest.branch);
  if (args.input.mode === "separate" && deps.openMergeRequest !== undefined) {
    await checkMergeRequestPossible(deps.target, args.repo, dest);
  }
  const run: Run = {
    deps,
    drafts,
    repo: args.repo,
    author: args.author,
    at,
    dest,
    commits: [],
    delivered: [],
    marks: new Map(),
  };
  const byPath = new Map(pending.map((draft) => [draftFilePath(draft.id), draft]));
  const files = pending.map((draft) => ({ path: draftFilePath(draft.id), content: draft.text }));
  for (const batch of deliveryBatches(files)) {
    await deliverBatch(
      run,
      batch.map((file) => byPath.get(file.path) as DraftRecord),
    );
  }
  const answer: DeliverAnswer = {
    commits: run.commits,
    branch: dest.branch,
    delivered: run.delivered,
  };
  if (run.delivered.length === 0) return answer;
  if (dest.branch === (await deps.target.defaultBranch())) {
    // Their file reached the default branch: once the index holds it they are drafts no
    // more (the parse of afterWrite or indexDefault may have removed them already; the
    // entry id and its counters stay).
    if (deps.indexDefault !== undefined && !(await deps.indexDefault(dest.branch))) return answer;
    for (const id of run.delivered) await drafts.remove(args.repo, id);
    return answer;
  }
  if (args.input.mode === "separate" && deps.openMergeRequest !== undefined) {
    const delivered = new Set(run.delivered);
    const entries = pending.filter((draft) => delivered.has(draft.id));
    const number = await deps.openMergeRequest({
      source: dest.branch,
      target: await deps.target.defaultBranch(),
      ...mergeRequestText(args.input.branch, entries),
    });
    for (const [commit, ids] of run.marks) {
      await drafts.markDelivered(args.repo, ids, {
        branch: dest.branch,
        commit,
        at,
        mergeRequest: number,
      });
    }
    answer.merge_request = number;
  }
  return answer;
}
