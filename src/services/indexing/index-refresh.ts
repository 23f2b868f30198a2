/**
 * Keeping a server's index in step with its repositories (`lore mcp`, `lore serve`; seed
 * 004, "Указатель": «если указатель на миг разошёлся с деревом, расхождение снимается само
 * при следующем чтении»).
 *
 * - Start: every repository is refreshed in the background and the tools answer at once
 *   from the existing index — an answer from the previous index is correct until the
 *   refresh commits. Only a repository (or the roots) never indexed before is waited for
 *   (`ready`): there is no previous index to answer from. A restart with nothing changed is
 *   O(1): the stored commit is compared with HEAD, nothing is listed or read. A server may
 *   hold that background work back a moment (`start(begin)`; `lore mcp` until its first
 *   answer is written or it has been idle for 200 ms, `mcp/start-up-gate.ts`) so that its
 *   git processes do not compete with the first answer; the watches on HEAD start at once.
 * - Reads: before each answer, {@link IndexRefresher.fresh} looks at the ref files of each
 *   repository (a few `stat` calls, no git process); when HEAD may have moved it refreshes
 *   that repository and waits for it, so a new commit is seen by the very next answer. A
 *   repository whose folder is gone drops out of the index; when the folder is back (moved
 *   back, cloned again) it is indexed again before the next answer.
 * - Each refresh runs on a connection of its own inside one write transaction: it commits
 *   all or nothing; a cancelled or failed refresh (kill -9 included) leaves the previous
 *   index readable, and the next read tries again. Refreshes of one process run one at a
 *   time; another process holding the write lock is waited for without blocking the event
 *   loop, and its work is not redone (the stored commit is then current).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { EntryIndex } from "../../index/entry-index.js";
import type { RootIndexRun } from "./index-roots.js";
import type { IndexRun, IndexTargetOptions } from "./index-target.js";

/** Something that tells when HEAD may have moved (see `adapters/git-cli/head-watch.ts`). */
export interface HeadSignal {
  /** Changes whenever HEAD may have moved; never throws. */
  signature(): string;
}

/** What the refresher needs (bound by `main/compose.ts`). */
export interface RefreshDeps {
  /** The connection the tools read through (only read here). */
  reader: EntryIndex;
  /** Opens a second connection to the same database, for the refresh transactions. */
  openWriter(): EntryIndex;
  /** Indexes one target on a connection (see `services/indexing/index-target.ts`). */
  indexTarget(index: EntryIndex, target: string, opts: IndexTargetOptions): Promise<IndexRun>;
  /** Indexes the knowledge roots' notes on a connection; absent without roots. */
  indexRoots?: (index: EntryIndex) => Promise<RootIndexRun[]>;
  /** The root repository names (`root:<id>`) configured; empty without roots. */
  rootRepos: readonly string[];
  /** Drops gone sources (see `services/indexing/index-prune.ts`); run after the start-up refresh. */
  prune?: (writer: EntryIndex) => void;
  /** A watch on a git repository's refs; `undefined` for a folder that is not one. */
  watchHead(target: string): Promise<HeadSignal | undefined>;
  /** Logs a run (summary and report lines) or a failure. */
  logRun(run: IndexRun): void;
  logRoots(runs: RootIndexRun[]): void;
  logError(target: string, error: unknown): void;
}

/** Longest wait for another process's write lock, ms. */
const LOCK_WAIT_MS = 10 * 60_000;
/** Pause between tries for the write lock, ms. */
const LOCK_POLL_MS = 50;

interface TargetState {
  target: string;
  /** The folder and identity of the last run. */
  dir?: string;
  identity?: string;
  watch?: HeadSignal;
  /** The ref signature the index is known to follow. */
  seen?: string;
  /** A refresh for a HEAD move, awaited by reads. */
  moved?: Promise<void>;
  gone: boolean;
}

/** Refreshes a server's repositories (see the module header). */
export class IndexRefresher {
  readonly #deps: RefreshDeps;
  readonly #states: TargetState[];
  #writer: EntryIndex | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #stop = new AbortController();

  /**
   * @param deps - see {@link RefreshDeps}.
   * @param targets - the paths to keep indexed (`--repo`, `[index] repos`).
   */
  constructor(deps: RefreshDeps, targets: readonly string[]) {
    this.#deps = deps;
    this.#states = [...new Set(targets.map((target) => resolve(target)))].map((target) => ({
      target,
      gone: false,
    }));
  }

  /**
   * Starts the start-up refresh of every target and of the roots, in the background.
   *
   * @param begin - when everything was indexed before, the refresh work (git processes,
   *   the writer connection, the prune) waits for it (`lore mcp`: after the first answer,
   *   `mcp/start-up-gate.ts`); the watches on HEAD start at once all the same, so a commit
   *   made meanwhile is seen by the next read. With a target or root never indexed, there
   *   is nothing to answer from: everything starts at once and `begin` is not used.
   *   A {@link close} before `begin` resolves runs none of it.
   * @returns resolves when the targets (and roots) that were never indexed are; never rejects.
   */
  start(begin?: Promise<void>): Promise<void> {
    const { indexRoots, rootRepos } = this.#deps;
    const roots = indexRoots !== undefined && rootRepos.length > 0;
    const knownTargets = this.#states.map(
      (state) => this.#deps.reader.repositoriesAt(state.target).length > 0,
    );
    const knownRoots =
      !roots || rootRepos.every((repo) => this.#deps.reader.repository(repo) !== undefined);
    if (begin === undefined || !knownRoots || knownTargets.includes(false)) {
      return this.#startAll(knownTargets, knownRoots);
    }
    const watched = this.#states.map((state) => this.#watch(state));
    Promise.all([begin, ...watched]).then(() => {
      if (!this.#stop.signal.aborted) void this.#startAll(knownTargets, knownRoots, true);
    });
    return Promise.resolve();
  }

  /** The start-up work of {@link start}; `watched`: the watches exist already. */
  #startAll(knownTargets: readonly boolean[], knownRoots: boolean, watched = false): Promise<void> {
    const waits: Promise<unknown>[] = [];
    this.#states.forEach((state, at) => {
      const run = this.#startTarget(state, watched);
      if (knownTargets[at] !== true) waits.push(run);
    });
    const { indexRoots, rootRepos } = this.#deps;
    if (indexRoots !== undefined && rootRepos.length > 0) {
      const run = this.#withWriter(async (writer) => {
        const runs = await indexRoots(writer);
        return runs;
      }).then(
        (runs) => this.#deps.logRoots(runs),
        (error: unknown) => this.#deps.logError("roots", error),
      );
      if (!knownRoots) waits.push(run);
    }
    const { prune } = this.#deps;
    if (prune !== undefined) {
      // After the start-up refreshes (queued before it): a moved repository was found under
      // its identity first, so only what is really gone is dropped.
      this.#withWriter(async (writer) => prune(writer), this.#stop.signal).catch(
        (error: unknown) => {
          if (!this.#stop.signal.aborted) this.#deps.logError("prune", error);
        },
      );
    }
    return Promise.all(waits).then(() => undefined);
  }

  /** Sets up the watch on a target's refs and the signature the index follows. */
  async #watch(state: TargetState): Promise<void> {
    try {
      state.watch = await this.#deps.watchHead(state.target);
      state.seen = state.watch?.signature();
    } catch {
      state.watch = undefined;
    }
  }

  async #startTarget(state: TargetState, watched: boolean): Promise<void> {
    // The watch first: a commit made while the first refresh runs is seen by the next read.
    if (!watched) await this.#watch(state);
    await this.#refresh(state, this.#stop.signal).catch((error: unknown) => {
      state.seen = undefined;
      if (!this.#stop.signal.aborted) this.#deps.logError(state.target, error);
    });
  }

  /**
   * Brings the index up to the repositories' HEAD before an answer: refreshes (and waits
   * for) each repository whose refs changed since its last refresh; drops a repository
   * whose folder is gone (and indexes it again once it is back). A refresh that fails is logged and the answer comes from the
   * previous index; the next call tries again.
   *
   * @param signal - the request's abort signal: a cancelled request cancels the refresh it
   *   started, which then commits nothing.
   * @throws the signal's reason when it is aborted.
   */
  async fresh(signal?: AbortSignal): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const state of this.#states) {
      let back = false;
      if (state.gone) {
        // Back again (moved back, cloned anew): indexed again before this answer.
        if (state.dir === undefined || !existsSync(state.dir)) continue;
        state.gone = false;
        back = true;
      }
      if (state.dir !== undefined && !existsSync(state.dir)) {
        state.gone = true;
        waits.push(this.#forget(state));
        continue;
      }
      if (state.watch === undefined && !back) continue;
      const signature = state.watch?.signature();
      if (back || signature !== state.seen) {
        state.seen = signature;
        const moved: Promise<void> = this.#refresh(state, signal)
          .catch((error: unknown) => {
            // Tried again by the next read.
            state.seen = undefined;
            if (signal?.aborted !== true) this.#deps.logError(state.target, error);
          })
          .finally(() => {
            if (state.moved === moved) state.moved = undefined;
          });
        state.moved = moved;
      }
      if (state.moved !== undefined) waits.push(state.moved);
    }
    await Promise.all(waits);
    signal?.throwIfAborted();
  }

  /** Stops: cancels the refreshes under way (they commit nothing), closes the writer. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#queue.catch(() => undefined);
    this.#writer?.close();
    this.#writer = undefined;
  }

  #refresh(state: TargetState, signal?: AbortSignal): Promise<void> {
    const both =
      signal === undefined ? this.#stop.signal : AbortSignal.any([signal, this.#stop.signal]);
    return this.#withWriter(async (writer) => {
      const run = await this.#deps.indexTarget(writer, state.target, {
        skipWhenCurrent: true,
        signal: both,
      });
      return run;
    }, both).then((run) => {
      state.dir = run.target;
      state.identity = run.repo;
      const twin = this.#states.find(
        (other) => other !== state && other.identity === run.repo && other.dir !== run.target,
      );
      if (twin !== undefined) {
        this.#deps.logError(
          state.target,
          new Error(`the same repository as ${twin.dir} (${run.repo}); one copy is indexed`),
        );
      }
      if (!run.current) this.#deps.logRun(run);
    });
  }

  async #forget(state: TargetState): Promise<void> {
    const identity = state.identity;
    if (identity === undefined) return;
    await this.#withWriter(async (writer) => {
      writer.forgetRepository(identity);
    }).catch((error: unknown) => this.#deps.logError(state.target, error));
  }

  /**
   * Runs `work` on the writer connection inside one write transaction, after the work
   * queued before it: committed when it resolves, rolled back when it throws.
   */
  #withWriter<T>(work: (writer: EntryIndex) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const job = this.#queue.then(async () => {
      signal?.throwIfAborted();
      this.#writer ??= this.#deps.openWriter();
      const writer = this.#writer;
      const until = Date.now() + LOCK_WAIT_MS;
      while (!writer.tryBeginWrite()) {
        if (Date.now() > until) throw new Error("the index stayed locked by another process");
        await sleep(LOCK_POLL_MS, undefined, signal === undefined ? {} : { signal });
      }
      try {
        const result = await work(writer);
        signal?.throwIfAborted();
        writer.commitWrite();
        return result;
      } catch (error) {
        writer.rollbackWrite();
        throw error;
      }
    });
    this.#queue = job.catch(() => undefined);
    return job;
  }
}
