/**
 * Drafts (seed 004, "Как знание выходит наружу", "Что происходит с черновиком"): an entry an
 * agent writes straight into the index for one repository and the branch it works on. It
 * is visible at once to everyone who can read the repository, marked unverified, and
 * reaches the repository only as a file of a reviewed commit (delivery).
 *
 * Pure: shapes, limits and names only.
 */

/** The default number of drafts one author may hold over all repositories (seed 004). */
export const DRAFT_LIMIT_DEFAULT = 200;

/** `GET …/knowledge/drafts`: default and largest `per_page`. */
export const DRAFTS_PER_PAGE = { default: 50, max: 100 } as const;

/**
 * A delivery batch's ceiling, bytes: the parse batch limit of seed 004 ("Пределы": 10 МБ).
 * A delivery over it is cut into several commits, never refused.
 */
export const DELIVERY_BATCH_BYTES = 10 * 1024 * 1024;

/** The folder delivered files are written to. */
export const KNOWLEDGE_DIR = ".gitriver/knowledge";

/**
 * Index sources of drafts are named `draft:<repo>` (`repo` = the repository's index name:
 * `owner/name` of a hosted repository, the identity of a local one), so a draft never
 * mixes with the files of its repository's default branch (the heal compares those with
 * the tree) and a file that arrives with the draft's id does not clash with it.
 */
export const DRAFT_SOURCE_PREFIX = "draft:";

/** The index source that holds a repository's drafts. */
export function draftSourceOf(repo: string): string {
  return `${DRAFT_SOURCE_PREFIX}${repo}`;
}

/** The repository of a draft source, or `undefined` when `source` holds no drafts. */
export function repoOfDraftSource(source: string): string | undefined {
  return source.startsWith(DRAFT_SOURCE_PREFIX)
    ? source.slice(DRAFT_SOURCE_PREFIX.length)
    : undefined;
}

/** The path a draft is delivered to: `.gitriver/knowledge/<id>.md` (seed 004). */
export function draftFilePath(id: string): string {
  return `${KNOWLEDGE_DIR}/${id}.md`;
}

/** Where and when a draft was delivered (seed 004: «куда, когда, в каком запросе ждёт»). */
export interface DraftDelivery {
  /** The branch the file was committed to. */
  branch: string;
  /** The commit that holds the file. */
  commit: string;
  /** When, ms since the epoch. */
  at: number;
  /** The number of the merge request it waits in, when one was opened. */
  mergeRequest?: number;
}

/** A stored draft. */
export interface DraftRecord {
  /** The entry id (UUIDv7), the same the file keeps once delivered. */
  id: string;
  /** The repository's index name (`owner/name` hosted; the identity of a local repository). */
  repo: string;
  /** The branch the author works on. */
  branch: string;
  /** The author's user name. */
  author: string;
  /** ms since the epoch. */
  createdAt: number;
  /** Bytes of the future file (`text` as UTF-8). */
  size: number;
  /** The whole future file `.gitriver/knowledge/<id>.md`, frontmatter included. */
  text: string;
  delivered?: DraftDelivery;
}

/**
 * A draft as a client writes it (`POST …/knowledge/drafts`, `knowledge_draft`, `lore draft
 * add`): the whole entry file (`id` may be absent and is then assigned), or the fields of
 * one. `origin` defaults to `agent`.
 */
export type DraftInput =
  | { branch: string; text: string }
  | {
      branch: string;
      /** The first paragraph: the entry's summary in lists. */
      title: string;
      /** The rest: why, what to try, when it does not work. */
      body: string;
      /** `on_query` words. */
      words?: string[];
      /** An `on_tool` name. */
      tool?: string;
      /** Ids of related entries. */
      links?: string[];
    };

/** A draft as the API answers it (seed 004 "Интерфейс"; times ISO 8601 UTC). */
export interface DraftView {
  id: string;
  branch: string;
  author: string;
  created_at: string;
  /** Bytes of the future file. */
  size: number;
  delivered?: { branch: string; commit: string; at: string; merge_request?: number };
  text: string;
  /** The repository (`owner/name` on the team server), for answers over several. */
  repo?: string;
}

/** `POST …/knowledge/drafts/deliver` (seed 004): path 1 `same`, path 2 `separate`. */
export interface DeliverInput {
  /** The branch whose drafts are delivered. */
  branch: string;
  /** `same`: into `branch` itself; `separate`: into `knowledge/<branch>-<label>`. */
  mode: "same" | "separate";
  /** The label of a separate branch. Default: the delivery's time, `YYYYMMDD-HHMMSS`. */
  label?: string;
}

/** What a delivery did. */
export interface DeliverAnswer {
  /** The commits written, oldest first (one per batch of at most 10 MB); empty: nothing to deliver. */
  commits: string[];
  /** The branch written to. */
  branch: string;
  /** The merge request opened for a separate branch (hosted repositories and Gitea). */
  merge_request?: number;
  /** The ids delivered now. */
  delivered: string[];
}
