import { existsSync, mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { HeadWatch, locateGitFolders } from "../adapters/git-cli/head-watch.js";
import { indexSummary } from "../cli/index-summary.js";
import type { ParseResult } from "../core/entry/entry.js";
import type { Lang } from "../core/errors/localized-text.js";
import { fromSqliteError, isLoreError, LoreError } from "../core/errors/lore-error.js";
import { wikiRepoName } from "../core/recall/hit-source.js";
import type { ReceiptPage } from "../core/receipts/receipt.js";
import type { WhyAnswer } from "../core/receipts/why.js";
import type { KnowledgeRoot } from "../core/roots/knowledge-roots.js";
import { rootRepoName } from "../core/roots/root-repo-name.js";
import { resolveRoot } from "../core/roots/root-resolution.js";
import { useSnowballLoader } from "../core/text/stem.js";
import {
  type EntryIndex,
  type OpenIndexOptions,
  openIndex,
  type RepositoryListing,
} from "../index/entry-index.js";
import type { FederationPort } from "../mcp/federation-port.js";
import type { KnowledgePort, RecallArgs } from "../mcp/knowledge-port.js";
import type { ToolNames } from "../mcp/tool-names.js";
import type { IndexProgress } from "../services/indexing/index-knowledge.js";
import { pruneIndex } from "../services/indexing/index-prune.js";
import { IndexRefresher } from "../services/indexing/index-refresh.js";
import type { RootIndexRun } from "../services/indexing/index-roots.js";
import type { IndexRun, IndexTargetDeps } from "../services/indexing/index-target.js";
import type { WikiIndexRun } from "../services/indexing/recall-wiki.js";
import { type EntryView, getEntry } from "../services/knowledge/get-entry.js";
import { type RecallAnswer, recall } from "../services/knowledge/recall.js";
import { explainEntryFor } from "../services/receipts/explain-entry.js";
import { listReceipts, type ReceiptsArgs } from "../services/receipts/list-receipts.js";
import type {
  ReadFileAnswer,
  ReadFileInput,
  WriteFileAnswer,
  WriteFileInput,
} from "../services/roots/knowledge-files.js";
import { recallInRepo, recallInRoot, withRoots } from "../services/roots/recall-roots.js";
import type { RootsStatusAnswer } from "../services/roots/roots-status.js";
import type { RouteContextAnswer } from "../services/roots/route-context.js";
import { lazyFederation } from "./lazy-federation.js";
import type { LoreSettings } from "./load-config.js";
import { loadSnowballWithCodeCache, snowballCacheFile } from "./snowball-code-cache.js";

/** Options of {@link composeLore}. */
export interface ComposeOptions {
  /** Writes a diagnostic line to stderr (never stdout: on `lore mcp` stdout is the protocol). */
  log?: (line: string) => void;
  /** Options of the index (the mechanism set; for tests of an upgrade). */
  index?: OpenIndexOptions;
}

/** Options of {@link Lore.index}. */
export interface IndexTargetOptions {
  /** The revision of a git repository to index. Default: HEAD. */
  commit?: string;
  /** Index the working files of a git repository, not a commit (`--worktree`). */
  worktree?: boolean;
  /** Called after each batch (files done, total, bytes, elapsed ms). */
  onProgress?: (progress: IndexProgress) => void;
}

export type { IndexRun } from "../services/indexing/index-target.js";

/** A server's index upkeep (see `services/indexing/index-refresh.ts`). */
export interface ServedIndex {
  /** Resolves when the repositories never indexed before are; never rejects. */
  ready: Promise<void>;
  /**
   * Refreshes (and waits for) the repositories whose HEAD moved; call before each answer.
   * @throws the signal's reason when it is aborted.
   */
  fresh(signal?: AbortSignal): Promise<void>;
  /** Cancels refreshes under way (nothing of theirs is committed). */
  close(): Promise<void>;
}

/**
 * Lore wired from its settings: the index, git repositories and the services, with the
 * configured user and language bound. The edges (CLI, MCP) use only this.
 */
export interface Lore {
  readonly settings: LoreSettings;
  /** The open index (the team server reads it with its rights filter, `main/server-api.ts`). */
  readonly entryIndex: EntryIndex;
  /**
   * Indexes a git repository at a commit (its entry files under `.gitriver/knowledge/`), or a
   * plain folder holding `.gitriver/knowledge/`, incrementally.
   *
   * A folder that holds `.gitriver/knowledge/` and is not the top of a git work tree is read
   * from the disk; a git repository with no commit yet (and no `commit` asked) too.
   * @throws LoreError `path_not_found`, `not_a_repository`, `git_failed`, `index_failed`.
   */
  index(target: string, options?: IndexTargetOptions): Promise<IndexRun>;
  /**
   * Indexes each path in turn, logging a summary and the report lines of each to `log`.
   * Never throws: a failing path is logged and the others go on.
   */
  indexAll(targets: readonly string[]): Promise<void>;
  /**
   * Keeps the index of `targets` (and the roots) fresh for a server: answers come at once
   * from the existing index, a restart with nothing changed is O(1), a moved HEAD is seen
   * before the next answer (see `services/indexing/index-refresh.ts`).
   *
   * @param options.begin - when every target and root was indexed before, the start-up
   *   refresh waits for it (`lore mcp`: its first answer, `mcp/start-up-gate.ts`); a target
   *   never indexed starts everything at once. Default: start at once.
   */
  serveIndex(targets: readonly string[], options?: { begin?: Promise<void> }): ServedIndex;
  /** Every indexed repository, folder and root with its counts (`lore repos`). */
  repos(): RepositoryListing[];
  /**
   * Drops a repository from the index (`lore forget`).
   * @param name - its identity, its folder, or `root:<id>`.
   * @returns the identity and the number of files dropped.
   * @throws LoreError `repo_not_indexed`.
   */
  forget(name: string): { repo: string; files: number };
  /**
   * The identity of an indexed repository named by identity or folder.
   * @throws LoreError `repo_not_indexed`.
   */
  resolveRepo(name: string): string;
  /**
   * Recall with the configured user (counts shown); hits from a knowledge root carry `root`;
   * `knowledge_root_id` restricts the hits to that root's notes (knowledge roots, seed 003).
   * @throws LoreError as `recall`, and `unknown_root`, `no_primary_root`.
   */
  recall(args: RecallArgs): RecallAnswer;
  /**
   * The configured user's load receipts, newest first (README "Load receipts"; `lore
   * receipts`, `knowledge_receipts`).
   * @throws LoreError `invalid_input` (a bad `since`), `invalid_limit`, `invalid_cursor`.
   */
  receipts(args?: ReceiptsArgs): ReceiptPage;
  /**
   * When and why one entry surfaced for the configured user, and why it did not (`lore why`).
   * @throws LoreError `entry_not_found`, `ambiguous_id`, `repo_not_indexed`.
   */
  why(id: string, options?: { repo?: string }): WhyAnswer;
  /** The configured knowledge roots (seed 003); empty without `[knowledge]`. */
  readonly roots: readonly KnowledgeRoot[];
  /**
   * Indexes the current project's wiki pages (`<project>/.wiki/`, `services/indexing/recall-wiki.ts`)
   * so recall lists them; incremental. With `ifChanged`, does nothing when the wiki's
   * fingerprint (`wikiFingerprint`) is the one of the last run.
   */
  indexWiki(options?: { ifChanged?: boolean }): Promise<WikiIndexRun | undefined>;
  /**
   * Indexes the notes of every root (see `services/indexing/index-roots.ts`), so recall finds them.
   * A missing root folder is reported in its run and does not stop the others.
   */
  indexRoots(): Promise<RootIndexRun[]>;
  /** `read_file` (see `services/roots/knowledge-files.ts`). */
  readFile(input: ReadFileInput, options?: RootAccessOptions): Promise<ReadFileAnswer>;
  /** `write_file`: primary only (see `services/roots/knowledge-files.ts`). */
  writeFile(input: WriteFileInput, options?: RootAccessOptions): Promise<WriteFileAnswer>;
  /** `route_context` (see `services/roots/route-context.ts`). */
  routeContext(query: string): Promise<RouteContextAnswer>;
  /** `status` of the roots (see `services/roots/roots-status.ts`). */
  status(): Promise<RootsStatusAnswer>;
  /**
   * The whole entry with the configured user (counts a read); `text` is the file's bytes as
   * stored at the indexed commit (read from git by blob sha, or from the disk when they
   * still match), else a canonical rendering when they cannot be read.
   * @throws LoreError `entry_not_found`, `ambiguous_id`, `repo_not_indexed`.
   */
  open(id: string, options?: { repo?: string }): Promise<EntryView>;
  /** Strict parse of a text as an entry file (the parser loads at the first call). */
  check(text: string, path?: string): Promise<ParseResult>;
  /**
   * The MCP tools' port; `ready` is what the tools await (start-up indexing, then, with
   * `served`, a refresh of the repositories whose HEAD moved). With
   * `remote: true` (`lore serve`) a `knowledge_path` is accepted only when it is one of
   * the configured roots.
   */
  port(ready?: Promise<void>, options?: RootAccessOptions, served?: ServedIndex): KnowledgePort;
  /** Closes the index. Idempotent. */
  close(): Promise<void>;
  /**
   * The federation (federation: shared wiki, other projects through the forge, tasks, sync),
   * from `[forge]`, `[wiki] shared`, `[projects] cache`; `names` spell ask_projects' hint.
   */
  federation(names?: Pick<ToolNames, "getFrom" | "createTask">): FederationPort;
}

/** How a caller reaches the roots. */
export interface RootAccessOptions {
  /** True for remote callers (HTTP): no `knowledge_path` outside the configured roots. */
  remote?: boolean;
}

/**
 * The composition root (STYLE.md habit 2; DESIGN.md "Layers"): opens the SQLite index at
 * `settings.database` (creating its folder) and binds the services to it, to the user and
 * to the language. Nothing else in Lore reads settings or the environment.
 *
 * @param settings - from `loadSettings`.
 * @param options - see {@link ComposeOptions}.
 * @throws LoreError `index_failed` when the database cannot be opened.
 */
export async function composeLore(
  settings: LoreSettings,
  options: ComposeOptions = {},
): Promise<Lore> {
  const log = options.log ?? (() => {});
  // The stemmers' compiled code is kept between processes: a one-shot recall and the MCP
  // server's first answer skip compiling the 850 KB package (snowball-code-cache.ts).
  const stemCache = snowballCacheFile(process.env);
  useSnowballLoader(() => loadSnowballWithCodeCache(stemCache));
  mkdirSync(dirname(settings.database), { recursive: true });
  const index: EntryIndex = openIndex(settings.database, options.index);
  // Load receipts are kept `[receipts] keep_days` (README "Load receipts").
  index.receipts.keepDays = settings.receipts?.keepDays ?? index.receipts.keepDays;
  const { user, lang } = settings;
  const roots: readonly KnowledgeRoot[] = settings.roots ?? [];
  const rootsCtx = (options: RootAccessOptions = {}) => ({
    roots,
    allowUnconfiguredPath: options.remote !== true,
    ...(settings.lockDir === undefined ? {} : { lockDir: settings.lockDir }),
  });
  let closed = false;
  const served: IndexRefresher[] = [];

  const projectDir = resolve(settings.projectDir ?? process.cwd());
  const wikiRepo = wikiRepoName(projectDir);
  let wikiSeen: string | undefined;

  const targetDeps = (on: EntryIndex): IndexTargetDeps => ({
    index: on,
    lang,
    log,
    openRepo: async (dir) => (await import("../adapters/git-cli/git-cli-repo.js")).openGitRepo(dir),
  });
  // Indexing code (git, the batch parser) is loaded when an index runs, not by `lore recall`.
  const indexTarget = async (on: EntryIndex, target: string, opts: IndexTargetOptions = {}) =>
    (await import("../services/indexing/index-target.js")).indexTarget(
      targetDeps(on),
      target,
      opts,
    );
  const indexOne = (target: string, opts: IndexTargetOptions = {}) =>
    indexTarget(index, target, opts);
  const indexRootsOn = async (on: EntryIndex) =>
    (await import("../services/indexing/index-roots.js")).indexRoots(on, roots);
  const rootRepos = roots.map((root) => rootRepoName(root.id));
  // Repositories whose folder is gone and roots no longer configured drop out before the
  // first read; not before indexing, so a moved repository is found under its identity and
  // re-indexed incrementally (a server prunes after its start-up refresh instead).
  let pruned = false;
  const pruneOnce = () => {
    if (pruned) return;
    pruned = true;
    pruneIndex(index, rootRepos, log);
  };
  const resolveRepo = (name: string): string => {
    if (index.repository(name) !== undefined) return name;
    const byPath = index.repositoriesAt(resolve(name))[0];
    if (byPath !== undefined) return byPath.repo;
    const root = index.repository(rootRepoName(name));
    if (root !== undefined) return root.repo;
    throw new LoreError("repo_not_indexed", { repo: name });
  };

  const lore: Lore = {
    settings,
    entryIndex: index,
    index: indexOne,
    roots,
    repos: () => {
      pruneOnce();
      return index.repositories();
    },
    resolveRepo,
    forget(name) {
      pruneOnce();
      const repo = resolveRepo(name);
      return { repo, files: index.forgetRepository(repo) };
    },
    serveIndex(targets, serveOptions = {}) {
      pruned = true;
      const refresher = new IndexRefresher(
        {
          reader: index,
          openWriter: () => openIndex(settings.database, options.index),
          indexTarget: (on, target, opts) => indexTarget(on, target, opts),
          ...(roots.length > 0 ? { indexRoots: indexRootsOn } : {}),
          rootRepos,
          prune: (on) => pruneIndex(on, rootRepos, log),
          watchHead: async (target) => {
            const found = locateGitFolders(target);
            if (found !== undefined) return new HeadWatch(found);
            const { openGitRepo } = await import("../adapters/git-cli/git-cli-repo.js");
            const repo = await openGitRepo(target).catch(() => undefined);
            if (repo === undefined) return undefined;
            try {
              return new HeadWatch(await repo.refFolders());
            } finally {
              await repo.close();
            }
          },
          logRun: (run) => {
            log(`lore: ${indexSummary(run, lang)}`);
            for (const line of run.lines) log(`  ${line}`);
          },
          logRoots: (runs) => logRootLines(runs, log, lang),
          logError: (target, error) =>
            log(`lore: ${basename(target)}: ${describeStartError(error, lang)}`),
        },
        targets,
      );
      const ready = refresher.start(serveOptions.begin);
      served.push(refresher);
      return {
        ready,
        fresh: (signal) => refresher.fresh(signal),
        close: () => refresher.close(),
      };
    },
    indexRoots: () => indexRootsOn(index),
    async indexWiki(options = {}) {
      const { indexProjectWiki, wikiFingerprint } = await import(
        "../services/indexing/recall-wiki.js"
      );
      const fingerprint = wikiFingerprint(projectDir);
      if (options.ifChanged === true && fingerprint === wikiSeen) return undefined;
      wikiSeen = fingerprint;
      return indexProjectWiki(index, projectDir);
    },
    // The code of the roots' file, routing and status tools is loaded at its first use, so
    // that a one-shot command (`lore recall`) does not load it.
    readFile: async (input, options) =>
      (await import("../services/roots/knowledge-files.js")).readKnowledgeFile(
        rootsCtx(options),
        input,
      ),
    writeFile: async (input, options) =>
      (await import("../services/roots/knowledge-files.js")).writeKnowledgeFile(
        rootsCtx(options),
        input,
      ),
    routeContext: async (query) =>
      (await import("../services/roots/route-context.js")).routeContext(rootsCtx(), query),
    status: async () =>
      (await import("../services/roots/roots-status.js")).rootsStatus(roots, lang),
    async indexAll(targets) {
      for (const target of targets) {
        try {
          const run = await indexOne(target);
          log(`lore: ${indexSummary(run, lang)}`);
          for (const line of run.lines) log(`  ${line}`);
        } catch (error) {
          const text = describeStartError(error, lang);
          log(`lore: ${basename(target)}: ${text}`);
        }
      }
      if (roots.length > 0) await logRootRuns(lore, log, lang);
    },
    recall: ({ knowledge_root_id, repo, count_shown, ...query }) => {
      pruneOnce();
      // Local counts stay queued (`index/counters.ts`): a recall never waits on a write.
      const args = { ...query, countShown: count_shown !== false };
      if (repo !== undefined && repo.trim() !== "") {
        return recallInRepo(index, { ...args, user, repo: resolveRepo(repo.trim()) });
      }
      if (knowledge_root_id === undefined || knowledge_root_id.trim() === "") {
        return withRoots(recall(index, { ...args, user, wiki: wikiRepo }));
      }
      const root = resolveRoot(roots, { knowledge_root_id });
      return recallInRoot(index, { ...args, user, root: root.id });
    },
    receipts: (args = {}) => listReceipts(index, { user }, args),
    why(id, opts = {}) {
      const repo = opts.repo === undefined ? undefined : resolveRepo(opts.repo);
      return explainEntryFor(index, { id, user, ...(repo === undefined ? {} : { repo }) });
    },
    async open(id, opts = {}) {
      pruneOnce();
      const repo = opts.repo === undefined ? undefined : resolveRepo(opts.repo);
      const view = getEntry(index, id, user, undefined, repo);
      const bytes = await storedBytes(index, view.repo, view.path, view.id);
      return bytes === undefined ? view : { ...view, text: bytes };
    },
    // The entry parser (and YAML) loads when a text is checked, not for `lore recall`.
    check: async (text, path) =>
      (await import("../core/entry/parse-entry.js")).parseEntry(
        text,
        path === undefined ? { mode: "strict" } : { mode: "strict", path },
      ),
    port(ready = Promise.resolve(), options = {}, served?: ServedIndex) {
      return {
        // A getter: every tool that awaits `ready` also sees a moved HEAD (the refresh
        // before answering of `services/indexing/index-refresh.ts`).
        get ready() {
          return served === undefined ? ready : ready.then(() => served.fresh());
        },
        ...(served === undefined
          ? {}
          : { fresh: (signal?: AbortSignal) => ready.then(() => served.fresh(signal)) }),
        // The project's wiki changes under a running server (knowledge_ingest, an editor):
        // re-index it when its fingerprint moved, then recall.
        recall: async (args) => {
          await lore.indexWiki({ ifChanged: true }).catch(() => undefined);
          return lore.recall(args);
        },
        open: lore.open,
        receipts: lore.receipts,
        check: lore.check,
        readFile: (input) => lore.readFile(input, options),
        writeFile: (input) => lore.writeFile(input, options),
        routeContext: lore.routeContext,
        status: lore.status,
      };
    },
    federation: (names) => lazyFederation(settings, names),
    async close() {
      if (closed) return;
      closed = true;
      for (const refresher of served) await refresher.close();
      index.close();
    },
  };
  return lore;
}

/** Indexes the roots' notes and logs one line per root (never throws). */
async function logRootRuns(lore: Lore, log: (line: string) => void, lang: Lang): Promise<void> {
  try {
    logRootLines(await lore.indexRoots(), log, lang);
  } catch (error) {
    const text = describeStartError(error, lang);
    log(`lore: roots: ${text}`);
  }
}

/**
 * The bytes of an entry's file as indexed: from git by blob sha for a repository (the
 * commit's copy, whatever the work tree holds), from the disk for a folder or a root when
 * the file still has the indexed content. `undefined` when neither can be read.
 */
async function storedBytes(
  index: EntryIndex,
  repo: string,
  path: string,
  id: string,
): Promise<string | undefined> {
  const source = index.repository(repo);
  const entry = index.getEntry(id, repo);
  if (source === undefined || entry === undefined || !existsSync(source.path)) return undefined;
  try {
    if (source.kind === "git" && source.commit !== null) {
      const { openGitRepo } = await import("../adapters/git-cli/git-cli-repo.js");
      const git = await openGitRepo(source.path);
      try {
        for await (const blob of git.readBlobs([entry.blobSha])) {
          return new TextDecoder().decode(blob.bytes);
        }
      } finally {
        await git.close();
      }
      return undefined;
    }
    const { KNOWLEDGE_DIR } = await import("../services/roots/knowledge-files.js");
    const { gitBlobSha } = await import("../services/indexing/index-folder.js");
    const file =
      source.kind === "root" ? join(source.path, KNOWLEDGE_DIR, path) : join(source.path, path);
    const bytes = await readFile(file);
    return gitBlobSha(bytes) === entry.blobSha ? new TextDecoder().decode(bytes) : undefined;
  } catch {
    return undefined;
  }
}

/** Logs one line per root run (see `logRootRuns`). */
function logRootLines(runs: RootIndexRun[], log: (line: string) => void, lang: Lang): void {
  for (const run of runs) {
    if (!run.exists) {
      log(
        lang === "ru"
          ? `lore: корень ${run.root}: нет папки knowledge/; пропущен (lore doctor)`
          : `lore: root ${run.root}: no knowledge/ folder; skipped (see lore doctor)`,
      );
      continue;
    }
    const changed = run.entries + run.notes;
    log(
      lang === "ru"
        ? `lore: корень ${run.root}: заметок проиндексировано ${changed}, без изменений ${run.unchanged}, удалено ${run.removed}`
        : `lore: root ${run.root}: ${changed} note(s) indexed, ${run.unchanged} unchanged, ${run.removed} removed`,
    );
    for (const clash of run.clashes) {
      log(
        lang === "ru"
          ? `  ${clash.path}: идентификатор ${clash.id} есть и в ${clash.otherRepo}:${clash.otherPath}; сохранены обе [id_clash]`
          : `  ${clash.path}: id ${clash.id} is also held by ${clash.otherRepo}:${clash.otherPath}; both are kept [id_clash]`,
      );
    }
  }
}

/** One line for an indexing failure at start: the message and its code, never a bare engine error. */
function describeStartError(error: unknown, lang: Lang): string {
  const lore = fromSqliteError(error) ?? (isLoreError(error) ? error : undefined);
  return lore === undefined ? String(error) : `${lore.text[lang]} [${lore.code}]`;
}
