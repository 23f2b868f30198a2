import type { DeliverAnswer, DraftView } from "../core/drafts/draft.js";
import type { ParseResult } from "../core/entry/entry.js";
import type { ReceiptPage } from "../core/receipts/receipt.js";
import type { DeadAnswer, StatsKind, UsageAnswer } from "../core/stats/usage-stats.js";
import type { EntryView } from "../services/knowledge/get-entry.js";
import type { RecallAnswer } from "../services/knowledge/recall.js";
import type { ReceiptsArgs } from "../services/receipts/list-receipts.js";
import type {
  ReadFileAnswer,
  ReadFileInput,
  WriteFileAnswer,
  WriteFileInput,
} from "../services/roots/knowledge-files.js";
import type { RootsStatusAnswer } from "../services/roots/roots-status.js";
import type { RouteContextAnswer } from "../services/roots/route-context.js";

/** Arguments of a recall, as the tool receives them. */
export interface RecallArgs {
  query?: string;
  tool?: string;
  limit?: number;
  cursor?: string;
  /** Only the notes of this knowledge root; case-insensitive. */
  knowledge_root_id?: string;
  /** Only the entries of this repository: its identity or folder (`lore recall --repo`). */
  repo?: string;
  /**
   * Whether the listed entries are counted as shown to the caller (seed 004 "Интерфейс":
   * shown/read counters). Default `true`; `false` for a client that marks shown itself
   * (`POST …/knowledge/shown`), so a showing is not counted twice.
   */
  count_shown?: boolean;
  /**
   * Who is asking, for the load receipt (README "Load receipts"): the MCP client's
   * `clientInfo.name`, a hook event (`claude-code:PreToolUse`), `cli`, `http`. Default `unknown`.
   */
  client?: string;
  /** The agent session (an MCP session id, a hook's `session_id`), for the load receipt. */
  session?: string;
}

/** A draft's content as the draft tools take it: the whole entry file, or its fields. */
export type DraftFields =
  | { text: string }
  | { title: string; body: string; words?: string[]; tool?: string; links?: string[] };

/** Where a draft tool works: a repository and a branch, each defaulted where it can be. */
export interface DraftPlace {
  /**
   * `owner/name` on a team server; locally the repository's folder. Default:
   * the current repository (local mode; on a team server, the origin remote's `owner/name`).
   */
  repo?: string;
  /** Default: the branch checked out in the current repository (local mode). */
  branch?: string;
}

/**
 * What the draft tools (`knowledge_draft`, `knowledge_drafts`, `knowledge_discard`,
 * `knowledge_deliver`; seed 004 "Как знание выходит наружу") need: in `lore mcp` the local
 * index of the current repository (or the team server of `[server] url`), over `/mcp` the
 * hosted repositories with the caller's rights.
 */
export interface DraftsPort {
  /**
   * Writes a draft.
   * @throws LoreError `invalid_entry` (data.diagnostics), `draft_too_large`,
   *   `draft_limit_reached`, `draft_id_taken`, `invalid_input`, `repo_not_found`,
   *   `forbidden`, `server_unreachable`.
   */
  write(args: DraftPlace & { draft: DraftFields }): Promise<DraftView>;
  /**
   * The repository's drafts (all authors), with their bodies; `branch` filters.
   * @throws LoreError `invalid_limit`, `invalid_cursor`, `repo_not_found`, `server_unreachable`.
   */
  list(
    args: DraftPlace & { per_page?: number; after?: string },
  ): Promise<{ items: DraftView[]; next_cursor: string | null }>;
  /** Removes one. @throws LoreError `draft_not_found`, `forbidden`, `server_unreachable`. */
  discard(args: { repo?: string; id: string }): Promise<void>;
  /**
   * Delivers a branch's drafts in one commit (per 10 MB).
   * `forge`: locally, write the commit into the repository on the configured Gitea (the
   * origin remote's) through its API instead of the working repository (`lore deliver
   * --forge`).
   * @throws LoreError `branch_protected`, `branch_not_found`, `branch_exists`,
   *   `server_unreachable`; with `forge`, `config_invalid` when the origin is on no
   *   configured Gitea, and the forge's errors.
   */
  deliver(
    args: DraftPlace & { mode: "same" | "separate"; label?: string; forge?: boolean },
  ): Promise<DeliverAnswer>;
}

/** Arguments of `knowledge_stats` (seed 004 "Интерфейс": `GET …/knowledge/stats/me|team|dead`). */
export interface StatsArgs {
  /**
   * The repository: `owner/name` on a team server; locally its identity or folder.
   * Default (local only): the repository of the current folder.
   */
  repo?: string;
  /** `me` (my counters), `team` (everyone's, Pro), `dead` (the dead-memory report, Pro). */
  kind: StatsKind;
  /** `dead` only: shown at least this often and never read is `shown_not_read`. Default 10. */
  min_shown?: number;
  /** `dead` only: older than this many days and never shown is `never_shown`. Default 30. */
  min_age_days?: number;
}

/** The answer of `knowledge_stats`: `stats/me` and `stats/team` give a UsageAnswer, `stats/dead` a DeadAnswer. */
export type StatsAnswer = UsageAnswer | DeadAnswer;

/**
 * What the MCP tools need from Lore (STYLE.md habit 3: a port is the subset its consumer
 * uses). `main/compose.ts` binds it to the index and the services with the configured user.
 */
export interface KnowledgePort {
  /**
   * Resolves when start-up indexing is done (the tools await it so the first answer sees
   * the repositories); never rejects — indexing failures are logged, not thrown.
   */
  ready: Promise<void>;
  /**
   * Like awaiting `ready`, then refreshes (and waits for) the repositories whose HEAD moved
   * since the last answer; the request's signal cancels that refresh (nothing of it is
   * committed). Absent when nothing is kept fresh.
   * @throws the signal's reason when it is aborted.
   */
  fresh?(signal?: AbortSignal): Promise<void>;
  /**
   * Load receipts of the caller, newest first (README "Load receipts"; `knowledge_receipts`).
   * Absent: the tool is not listed.
   * @throws LoreError `invalid_input` (a bad `since`), `invalid_limit`, `invalid_cursor`.
   */
  receipts?(args: ReceiptsArgs): Promise<ReceiptPage> | ReceiptPage;
  /**
   * Recall: contract hits, then full-text hits, summaries only; counts the listed entries as
   * shown. Returns `{hits, total, total_exact, next_cursor}`.
   * @throws LoreError `empty_query`, `invalid_cursor`, `invalid_limit`, `index_failed`; on the
   *   team server also `forbidden` (a token without `knowledge:read`), and for `repo` as
   *   {@link KnowledgePort.open}.
   */
  recall(args: RecallArgs): Promise<RecallAnswer> | RecallAnswer;
  /**
   * The whole entry with its body; counts a read. `options.repo` names the repository the
   * entry is in (`owner/name`, or a local source's identity or folder) when ids repeat
   * across repositories; absent: every repository the caller may read.
   * @throws LoreError `entry_not_found`, `ambiguous_id` (two repositories hold the id and
   *   `repo` is absent), `repo_not_indexed` (a local `repo` that is not indexed); on the team
   *   server `invalid_repo_name` (not a repository name, e.g. upper case), `repo_not_found`
   *   (a hosted-shaped `repo` that is missing or that the caller cannot read: the same
   *   answer), `forbidden` (a token without `knowledge:read`).
   */
  open(id: string, options?: { repo?: string }): Promise<EntryView> | EntryView;
  /** Strict parse of a text as an entry file (pure; the parser may load at the first call). */
  check(text: string, path?: string): Promise<ParseResult> | ParseResult;
  /**
   * Reads a file of a knowledge root.
   * @throws LoreError `root_args_conflict`, `unknown_root`, `no_primary_root`,
   *   `root_not_configured`, `path_outside_root`, `root_missing`, `path_not_found`.
   */
  readFile(input: ReadFileInput): Promise<ReadFileAnswer>;
  /**
   * Writes a file of the primary root.
   * @throws LoreError `read_only_root`, `file_exists`, `path_outside_root`, and as readFile.
   */
  writeFile(input: WriteFileInput): Promise<WriteFileAnswer>;
  /** Hot sections and the roots overlay for a query. @throws `empty_query`, `no_primary_root`. */
  routeContext(query: string): Promise<RouteContextAnswer>;
  /** The roots with their state. */
  status(): Promise<RootsStatusAnswer>;
  /** The draft tools' port; absent: the draft tools are not listed. */
  drafts?: DraftsPort;
  /**
   * `knowledge_stats`: the shown/read counters of a repository's entries (`me`), everyone's
   * (`team`, Pro) or the dead-memory report (`dead`, Pro); absent: the tool is not listed.
   * @throws LoreError `license_required` (the paid kinds without a Pro licence, before any
   *   right is looked at), `repo_not_found`, `repo_not_indexed` (local), `forbidden`,
   *   `invalid_input` (a threshold out of range, a threshold with `me`/`team`, no repo).
   */
  stats?(args: StatsArgs): Promise<StatsAnswer>;
}
