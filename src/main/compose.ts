import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type GitCliRepo, openGitRepo } from "../adapters/git-cli/git-cli-repo.js";
import { indexSummary } from "../cli/index-summary.js";
import type { ParseResult } from "../core/entry.js";
import type { Lang } from "../core/localized-text.js";
import { isLoreError } from "../core/lore-error.js";
import { parseEntry } from "../core/parse-entry.js";
import { type EntryIndex, openIndex } from "../index/entry-index.js";
import type { KnowledgePort, RecallArgs } from "../mcp/knowledge-port.js";
import { type EntryView, getEntry } from "../services/get-entry.js";
import { indexFolder } from "../services/index-folder.js";
import type { IndexProgress, IndexReport } from "../services/index-knowledge.js";
import { indexRepository } from "../services/index-repo.js";
import { type RecallAnswer, recall } from "../services/recall.js";
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
  /** Recall with the configured user (counts shown). */
  recall(args: RecallArgs): RecallAnswer;
  /** The whole entry with the configured user (counts a read). */
  open(id: string): EntryView;
  /** Strict parse of a text as an entry file. */
  check(text: string, path?: string): ParseResult;
  /** The MCP tools' port; `ready` is what the tools await (start-up indexing). */
  port(ready?: Promise<void>): KnowledgePort;
  /** Closes the index. Idempotent. */
  close(): Promise<void>;
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
  let closed = false;

  const indexTarget = (target: string, opts: IndexTargetOptions = {}) =>
    indexPath({ index, lang, log }, target, opts);

  const lore: Lore = {
    settings,
    index: indexTarget,
    async indexAll(targets) {
      for (const target of targets) {
        try {
          const run = await indexTarget(target);
          log(`lore: ${indexSummary(run, lang)}`);
          for (const line of run.lines) log(`  ${line}`);
        } catch (error) {
          const text = isLoreError(error) ? `${error.text[lang]} [${error.code}]` : String(error);
          log(`lore: ${basename(target)}: ${text}`);
        }
      }
    },
    recall: (args) => recall(index, { ...args, user }),
    open: (id) => getEntry(index, id, user),
    check: (text, path) =>
      parseEntry(text, path === undefined ? { mode: "strict" } : { mode: "strict", path }),
    port(ready = Promise.resolve()) {
      return { ready, recall: lore.recall, open: lore.open, check: lore.check };
    },
    async close() {
      if (closed) return;
      closed = true;
      index.close();
    },
  };
  return lore;
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
