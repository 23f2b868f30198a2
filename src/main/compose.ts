import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type GitCliRepo, openGitRepo } from "../adapters/git-cli/git-cli-repo.js";
import { indexSummary } from "../cli/index-summary.js";
import type { ParseResult } from "../core/entry.js";
import { wikiRepoName } from "../core/hit-source.js";
import type { KnowledgeRoot } from "../core/knowledge-roots.js";
import type { Lang } from "../core/localized-text.js";
import { fromSqliteError, isLoreError } from "../core/lore-error.js";
import { parseEntry } from "../core/parse-entry.js";
import { resolveRoot } from "../core/root-resolution.js";
import { type EntryIndex, openIndex } from "../index/entry-index.js";
import type { FederationPort } from "../mcp/federation-port.js";
import type { KnowledgePort, RecallArgs } from "../mcp/knowledge-port.js";
import type { ToolNames } from "../mcp/tool-names.js";
import { type EntryView, getEntry } from "../services/get-entry.js";
import { indexFolder } from "../services/index-folder.js";
import type { IndexProgress, IndexReport } from "../services/index-knowledge.js";
import { indexRepository } from "../services/index-repo.js";
import { indexRoots, type RootIndexRun } from "../services/index-roots.js";
import {
  type ReadFileAnswer,
  type ReadFileInput,
  readKnowledgeFile,
  type WriteFileAnswer,
  type WriteFileInput,
  writeKnowledgeFile,
} from "../services/knowledge-files.js";
import { type RecallAnswer, recall } from "../services/recall.js";
import { recallInRoot, withRoots } from "../services/recall-roots.js";
import { indexProjectWiki, type WikiIndexRun, wikiFingerprint } from "../services/recall-wiki.js";
import { type RootsStatusAnswer, rootsStatus } from "../services/roots-status.js";
import { type RouteContextAnswer, routeContext } from "../services/route-context.js";
import { federationFromSettings } from "./compose-federation.js";
import type { LoreSettings } from "./load-config.js";

/** Options of {@link composeLore}. */
export interface ComposeOptions {
  /** Writes a diagnostic line to stderr (never stdout: on `lore mcp` stdout is the protocol). */
  log?: (line: string) => void;
}

/** Options of {@link Lore.index}. */
export interface IndexTargetOptions {
  /** The revision of a git repository to index. Default: HEAD. */
  commit?: string;
  /** Called after each batch (files done, total, bytes, elapsed ms). */
  onProgress?: (progress: IndexProgress) => void;
}

/** The index report plus what was indexed. */
export interface IndexRun extends IndexReport {
  /** The absolute path indexed: a repository's top, or a folder. */
  target: string;
  /** `git` when read from a commit, `folder` when read from the disk. */
  kind: "git" | "folder";
}

/**
 * Lore wired from its settings: the index, git repositories and the services, with the
 * configured user and language bound. The edges (CLI, MCP) use only this.
 */
export interface Lore {
  readonly settings: LoreSettings;
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
   * Recall with the configured user (counts shown); hits from a knowledge root carry `root`;
   * `knowledge_root_id` restricts the hits to that root's notes (issue 3).
   * @throws LoreError as `recall`, and `unknown_root`, `no_primary_root`.
   */
  recall(args: RecallArgs): RecallAnswer;
  /** The configured knowledge roots (issue 3); empty without `[knowledge]`. */
  readonly roots: readonly KnowledgeRoot[];
  /**
   * Indexes the current project's wiki pages (`<project>/.wiki/`, `services/recall-wiki.ts`)
   * so recall lists them; incremental. With `ifChanged`, does nothing when the wiki's
   * fingerprint (`wikiFingerprint`) is the one of the last run.
   */
  indexWiki(options?: { ifChanged?: boolean }): Promise<WikiIndexRun | undefined>;
  /**
   * Indexes the notes of every root (see `services/index-roots.ts`), so recall finds them.
   * A missing root folder is reported in its run and does not stop the others.
   */
  indexRoots(): Promise<RootIndexRun[]>;
  /** `read_file` (see `services/knowledge-files.ts`). */
  readFile(input: ReadFileInput, options?: RootAccessOptions): Promise<ReadFileAnswer>;
  /** `write_file`: primary only (see `services/knowledge-files.ts`). */
  writeFile(input: WriteFileInput, options?: RootAccessOptions): Promise<WriteFileAnswer>;
  /** `route_context` (see `services/route-context.ts`). */
  routeContext(query: string): Promise<RouteContextAnswer>;
  /** `status` of the roots (see `services/roots-status.ts`). */
  status(): Promise<RootsStatusAnswer>;
  /** The whole entry with the configured user (counts a read). */
  open(id: string): EntryView;
  /** Strict parse of a text as an entry file. */
  check(text: string, path?: string): ParseResult;
  /**
   * The MCP tools' port; `ready` is what the tools await (start-up indexing). With
   * `remote: true` (`lore serve`) a `knowledge_path` is accepted only when it is one of
   * the configured roots.
   */
  port(ready?: Promise<void>, options?: RootAccessOptions): KnowledgePort;
  /** Closes the index. Idempotent. */
  close(): Promise<void>;
  /**
   * The federation (issue 4: shared wiki, other projects through the forge, tasks, sync),
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
  mkdirSync(dirname(settings.database), { recursive: true });
  const index: EntryIndex = openIndex(settings.database);
  const { user, lang } = settings;
  const roots: readonly KnowledgeRoot[] = settings.roots ?? [];
  const rootsCtx = (options: RootAccessOptions = {}) => ({
    roots,
    allowUnconfiguredPath: options.remote !== true,
  });
  let closed = false;

  const projectDir = resolve(settings.projectDir ?? process.cwd());
  const wikiRepo = wikiRepoName(projectDir);
  let wikiSeen: string | undefined;

  const indexTarget = (target: string, opts: IndexTargetOptions = {}) =>
    indexPath({ index, lang, log }, target, opts);

  const lore: Lore = {
    settings,
    index: indexTarget,
    roots,
    indexRoots: () => indexRoots(index, roots),
    async indexWiki(options = {}) {
      const fingerprint = await wikiFingerprint(projectDir);
      if (options.ifChanged === true && fingerprint === wikiSeen) return undefined;
      wikiSeen = fingerprint;
      return indexProjectWiki(index, projectDir);
    },
    readFile: (input, options) => readKnowledgeFile(rootsCtx(options), input),
    writeFile: (input, options) => writeKnowledgeFile(rootsCtx(options), input),
    routeContext: (query) => routeContext(rootsCtx(), query),
    status: () => rootsStatus(roots, lang),
    async indexAll(targets) {
      for (const target of targets) {
        try {
          const run = await indexTarget(target);
          log(`lore: ${indexSummary(run, lang)}`);
          for (const line of run.lines) log(`  ${line}`);
        } catch (error) {
          const text = describeStartError(error, lang);
          log(`lore: ${basename(target)}: ${text}`);
        }
      }
      if (roots.length > 0) await logRootRuns(lore, log, lang);
    },
    recall: ({ knowledge_root_id, ...args }) => {
      if (knowledge_root_id === undefined || knowledge_root_id.trim() === "") {
        return withRoots(recall(index, { ...args, user, wiki: wikiRepo }));
      }
      const root = resolveRoot(roots, { knowledge_root_id });
      return recallInRoot(index, { ...args, user, root: root.id });
    },
    open: (id) => getEntry(index, id, user),
    check: (text, path) =>
      parseEntry(text, path === undefined ? { mode: "strict" } : { mode: "strict", path }),
    port(ready = Promise.resolve(), options = {}) {
      return {
        ready,
        // The project's wiki changes under a running server (knowledge_ingest, an editor):
        // re-index it when its fingerprint moved, then recall.
        recall: async (args) => {
          await lore.indexWiki({ ifChanged: true }).catch(() => undefined);
          return lore.recall(args);
        },
        open: lore.open,
        check: lore.check,
        readFile: (input) => lore.readFile(input, options),
        writeFile: (input) => lore.writeFile(input, options),
        routeContext: lore.routeContext,
        status: lore.status,
      };
    },
    federation: (names) => federationFromSettings(settings, names),
    async close() {
      if (closed) return;
      closed = true;
      index.close();
    },
  };
  return lore;
}

/** Indexes the roots' notes and logs one line per root (never throws). */
async function logRootRuns(lore: Lore, log: (line: string) => void, lang: Lang): Promise<void> {
  try {
    for (const run of await lore.indexRoots()) {
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
    }
  } catch (error) {
    const text = describeStartError(error, lang);
    log(`lore: roots: ${text}`);
  }
}

const hasKnowledgeFolder = (dir: string) => existsSync(join(dir, ".gitriver", "knowledge"));

/**
 * Indexes one path: a git repository at a commit, or a folder from the disk (see
 * {@link Lore.index} for the rule).
 */
async function indexPath(
  deps: { index: EntryIndex; lang: Lang; log: (line: string) => void },
  target: string,
  opts: IndexTargetOptions,
): Promise<IndexRun> {
  const common = {
    index: deps.index,
    lang: deps.lang,
    ...(opts.onProgress === undefined ? {} : { onProgress: opts.onProgress }),
  };
  const fromFolder = async (dir: string): Promise<IndexRun> => ({
    ...(await indexFolder({ ...common, dir, repoName: dir })),
    target: dir,
    kind: "folder",
  });
  const dir = resolve(target);
  let repo: GitCliRepo;
  try {
    repo = await openGitRepo(dir);
  } catch (error) {
    const notGit = isLoreError(error) && error.code === "not_a_repository";
    if (notGit && hasKnowledgeFolder(dir)) return fromFolder(dir);
    throw error;
  }
  try {
    // A folder with its own knowledge inside someone else's work tree is that folder.
    if (!repo.bare && hasKnowledgeFolder(dir) && realpathSync(dir) !== realpathSync(repo.dir)) {
      return await fromFolder(dir);
    }
    let commit = opts.commit;
    if (commit === undefined) {
      try {
        commit = await repo.resolveCommit();
      } catch (error) {
        if (repo.bare || !hasKnowledgeFolder(repo.dir)) throw error;
        deps.log(
          deps.lang === "ru"
            ? `lore: в ${repo.dir} ещё нет коммита; читаю файлы с диска`
            : `lore: ${repo.dir} has no commit yet; reading the files from the disk`,
        );
        return await fromFolder(repo.dir);
      }
    }
    const report = await indexRepository({ ...common, repo, repoName: repo.dir, commit });
    return { ...report, target: repo.dir, kind: "git" };
  } finally {
    await repo.close();
  }
}

/** One line for an indexing failure at start: the message and its code, never a bare engine error. */
function describeStartError(error: unknown, lang: Lang): string {
  const lore = fromSqliteError(error) ?? (isLoreError(error) ? error : undefined);
  return lore === undefined ? String(error) : `${lore.text[lang]} [${lore.code}]`;
}
