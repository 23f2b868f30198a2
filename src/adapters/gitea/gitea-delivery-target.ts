import type { DraftDelivery } from "../../core/drafts/draft.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import type {
  DeliveryCommit,
  DeliveryTarget,
  DeliveryWrite,
  GitPerson,
} from "../../ports/delivery-target.js";
import type { GiteaForge } from "./gitea-forge.js";
import type {
  GiteaBranch,
  GiteaChangeFileOperation,
  GiteaGitEntry,
  GiteaLabel,
  GiteaPullRequest,
} from "./gitea-types.js";

/**
 * The label that marks a pull request opened by Lore's delivery as machine-made (seed 004,
 * "Происхождение запроса ставит сервер"). Lore sets it with its own forge token after
 * opening the request; no field of Lore's API lets a client ask for it.
 */
export const LORE_MACHINE_LABEL = "lore:machine";

/** The colour the label is created with (Gitea wants `#rrggbb`). */
const LORE_MACHINE_COLOR = "#5319e7";

/** Tree entries asked for per page of `git/trees` (Gitea's default and ceiling is 1000). */
const TREE_PAGE = 1000;

/** Most pages of one tree read before giving up (a million entries). */
const MAX_TREE_PAGES = 1000;

/** The merge request a delivery opens for a separate branch (path 2). */
export interface GiteaMergeRequestInput {
  /** The branch the files were written to (`knowledge/<branch>-<label>`). */
  source: string;
  /** The branch it is to be merged into. */
  target: string;
  title: string;
  body: string;
}

/** Where {@link giteaDelivery} writes: one repository on a Gitea server. */
export interface GiteaDeliveryOptions {
  /** The forge, with the token Lore uses (`[gitea] token` of `auth.toml`). */
  forge: GiteaForge;
  /** Repository owner (user or organisation). */
  owner: string;
  /** Repository name. */
  repo: string;
}

/** What {@link giteaDelivery} gives the delivery service (`DeliveryDeps` pieces). */
export interface GiteaDelivery {
  /** The repository as a delivery target. */
  target: DeliveryTarget;
  /**
   * Opens the pull request `source` → `target` and marks it with {@link LORE_MACHINE_LABEL}
   * (the label is created once when the repository lacks it). When an open pull request
   * for the same branches exists already (a retried delivery), that one is marked and its
   * number returned.
   *
   * @returns the pull request's number (its index on Gitea).
   * @throws LoreError `forge_not_found` (a branch is missing), `forge_unauthorized`,
   *   `forge_unavailable`, `forge_failed` (also when Gitea did not keep the label),
   *   `invalid_input`.
   */
  openMergeRequest: (mr: GiteaMergeRequestInput) => Promise<number>;
  /**
   * Refuses, before anything is written, a branch Gitea protects against the token's user
   * (`protected` and not `user_can_push`); a branch that does not exist yet passes.
   *
   * @throws LoreError `branch_protected`, and the forge's errors.
   */
  checkWrite: (branch: string) => Promise<void>;
  /**
   * True when a delivery's merge request was closed without merging (or is gone), or its
   * branch was deleted before a merge: its drafts may be delivered again.
   *
   * @throws LoreError the forge's errors.
   */
  isStale: (delivery: DraftDelivery) => Promise<boolean>;
}

/**
 * Delivery into a repository on a Gitea server (seed 004, "Как знание выходит наружу"):
 * each batch is ONE commit made by Gitea's multi-file contents endpoint (`POST
 * /repos/{o}/{r}/contents`, ChangeFiles, Gitea 1.20+), so Gitea's own branch protection
 * applies to it as to a push (a refusal is `branch_protected`, nothing written); path 2's
 * branch is created by the same call (`new_branch`), and its pull request is opened
 * through the API and marked with {@link LORE_MACHINE_LABEL}.
 *
 * Compare-and-swap: Gitea's API takes no expected head commit, so `writeCommit` reads the
 * branch (`GET …/branches/{b}`) right before writing and answers `{raced: true}` when it
 * no longer points at `expectedHead` (or exists when it should be created). The window
 * between that read and the write stays open; it is narrowed by the file operations
 * themselves — a path that is absent at the read head is sent as `create` and a present
 * one as `update` with its blob sha, so a file someone wrote meanwhile makes Gitea refuse
 * the whole commit (422), which comes back as `{raced: true}` too. A commit that landed on
 * a head moved in that window still adds only this batch's files on top of it.
 *
 * @param options - the forge, owner and repository.
 */
export function giteaDelivery(options: GiteaDeliveryOptions): GiteaDelivery {
  const { forge, owner, repo } = options;
  let label: Promise<GiteaLabel> | undefined;

  const target: DeliveryTarget = {
    async defaultBranch() {
      return (await forge.getRepository(owner, repo)).default_branch;
    },
    async branchHead(branch) {
      return (await forge.getBranch(owner, repo, branch))?.commit.id;
    },
    pathsAt: (commit, paths) => pathsAt(forge, owner, repo, commit, paths),
    writeCommit: (commit) => writeCommit(forge, owner, repo, commit),
  };

  const machineLabel = (): Promise<GiteaLabel> => {
    label ??= (async () => {
      const found = (await forge.listLabels(owner, repo)).find(
        (l) => l.name === LORE_MACHINE_LABEL,
      );
      return (
        found ??
        forge.createLabel(owner, repo, {
          name: LORE_MACHINE_LABEL,
          color: LORE_MACHINE_COLOR,
          description: "Opened by Lore's knowledge delivery (machine origin)",
        })
      );
    })();
    // A failed look-up is not kept: the next call tries again.
    label.catch(() => {
      label = undefined;
    });
    return label;
  };

  return {
    target,
    async openMergeRequest(mr) {
      const pr = await openOrFind(forge, owner, repo, mr);
      const mark = await machineLabel();
      if (pr.labels?.some((l) => l.id === mark.id) === true) return pr.number;
      const labels = await forge.addIssueLabels(owner, repo, pr.number, [mark.id]);
      if (!labels.some((l) => l.id === mark.id))
        throw new LoreError("forge_failed", {
          status: 200,
          reason: `Gitea did not keep the label ${LORE_MACHINE_LABEL} on pull request ${pr.number}`,
          reason_ru: `Gitea не сохранил метку ${LORE_MACHINE_LABEL} на запросе ${pr.number}`,
        });
      return pr.number;
    },
    async checkWrite(branch) {
      const found = await forge.getBranch(owner, repo, branch);
      if (found !== null) refuseProtected(found);
    },
    async isStale(delivery) {
      if (delivery.mergeRequest !== undefined) {
        const pr = await forge.getPullRequest(owner, repo, delivery.mergeRequest);
        if (pr === null || (pr.state === "closed" && !pr.merged)) return true;
        // Merged: the files are where they belong. Open with its branch deleted: it can
        // never merge.
        if (pr.merged) return false;
      }
      return (await forge.getBranch(owner, repo, delivery.branch)) === null;
    },
  };
}

/** Throws `branch_protected` when Gitea says the token's user may not push to `branch`. */
function refuseProtected(branch: GiteaBranch): void {
  if (branch.protected === true && branch.user_can_push === false)
    throw new LoreError(
      "branch_protected",
      {
        branch: branch.name,
        reason: `Gitea's branch protection (${branch.effective_branch_protection_name || branch.name}) does not let this token push`,
        reason_ru: `защита ветки в Gitea (${branch.effective_branch_protection_name || branch.name}) не даёт этому токену отправлять`,
      },
      { data: { branch: branch.name, rule: branch.effective_branch_protection_name ?? null } },
    );
}

/** Writes one commit through ChangeFiles after checking the head (see {@link giteaDelivery}). */
async function writeCommit(
  forge: GiteaForge,
  owner: string,
  repo: string,
  commit: DeliveryCommit,
): Promise<DeliveryWrite> {
  const current = await forge.getBranch(owner, repo, commit.branch);
  let base: string;
  let parent: string;
  if (commit.expectedHead === undefined) {
    if (current !== null) return { raced: true };
    const from = await branchAt(forge, owner, repo, commit.from);
    if (from === null) return { raced: true };
    ({ base, parent } = from);
  } else {
    if (current === null || current.commit.id !== commit.expectedHead) return { raced: true };
    refuseProtected(current);
    base = commit.branch;
    parent = commit.expectedHead;
  }
  const existing = await pathsAt(
    forge,
    owner,
    repo,
    parent,
    commit.files.map((f) => f.path),
  );
  const files = commit.files.map((file): GiteaChangeFileOperation => {
    const content = Buffer.from(file.content, "utf8").toString("base64");
    const sha = existing.get(file.path);
    return sha === undefined
      ? { operation: "create", path: file.path, content }
      : { operation: "update", path: file.path, content, sha };
  });
  const at = new Date(commit.at).toISOString();
  try {
    const answer = await forge.changeFiles(owner, repo, {
      files,
      branch: base,
      ...(commit.expectedHead === undefined ? { new_branch: commit.branch } : {}),
      message: commit.message,
      author: person(commit.author),
      committer: person(commit.committer),
      dates: { author: at, committer: at },
    });
    return { commit: answer.commit.sha };
  } catch (error) {
    // 422/409 (a file or the new branch appeared, a sha went stale) and 404 (the branch
    // went away): the branch moved between the read and the write; nothing was written.
    if (isLoreError(error) && (error.code === "forge_conflict" || error.code === "forge_not_found"))
      return { raced: true };
    throw error;
  }
}

/**
 * The branch a new branch starts from: ChangeFiles creates `new_branch` from a BRANCH, so
 * `from` (a commit) must be some branch's head — the default branch's first, else any.
 * Absent `from`: the default branch's head.
 *
 * @returns the base branch and its head, or `null` when no branch points at `from` (the
 *   default branch moved since it was read: a race).
 */
async function branchAt(
  forge: GiteaForge,
  owner: string,
  repo: string,
  from: string | undefined,
): Promise<{ base: string; parent: string } | null> {
  const name = (await forge.getRepository(owner, repo)).default_branch;
  const main = await forge.getBranch(owner, repo, name);
  if (main !== null && (from === undefined || main.commit.id === from))
    return { base: name, parent: main.commit.id };
  if (from === undefined) return null;
  const other = (await forge.listBranches(owner, repo)).find((b) => b.commit.id === from);
  return other === undefined ? null : { base: other.name, parent: from };
}

/**
 * Which of `paths` are blobs in `commit`'s tree, with their blob shas: each folder is found
 * by walking the trees from the root (`GET …/git/trees/{sha}`, not recursive, every page),
 * so a large repository is never listed whole.
 *
 * @throws LoreError `forge_failed` (no such commit), and the forge's errors.
 */
async function pathsAt(
  forge: GiteaForge,
  owner: string,
  repo: string,
  commit: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const folders = new Map<string, Promise<Map<string, GiteaGitEntry> | null>>();
  const listing = (sha: string) => listTree(forge, owner, repo, sha);
  const folder = (dir: string): Promise<Map<string, GiteaGitEntry> | null> => {
    const cached = folders.get(dir);
    if (cached !== undefined) return cached;
    const made = (async () => {
      if (dir === "") {
        const root = await listing(commit);
        if (root === null)
          throw new LoreError("forge_failed", {
            status: 404,
            reason: `commit ${commit} is not in ${owner}/${repo}`,
            reason_ru: `коммита ${commit} нет в ${owner}/${repo}`,
          });
        return root;
      }
      const cut = dir.lastIndexOf("/");
      const parent = await folder(cut < 0 ? "" : dir.slice(0, cut));
      const entry = parent?.get(dir.slice(cut + 1));
      return entry?.type === "tree" ? listing(entry.sha) : null;
    })();
    folders.set(dir, made);
    return made;
  };
  const found = new Map<string, string>();
  for (const path of paths) {
    const cut = path.lastIndexOf("/");
    const entry = (await folder(cut < 0 ? "" : path.slice(0, cut)))?.get(path.slice(cut + 1));
    if (entry?.type === "blob") found.set(path, entry.sha);
  }
  return found;
}

/** One tree's entries by name, every page; `null` when Gitea has no such object. */
async function listTree(
  forge: GiteaForge,
  owner: string,
  repo: string,
  sha: string,
): Promise<Map<string, GiteaGitEntry> | null> {
  const entries = new Map<string, GiteaGitEntry>();
  for (let page = 1; page <= MAX_TREE_PAGES; page++) {
    const answer = await forge.getTree(owner, repo, sha, { page, perPage: TREE_PAGE });
    if (answer === null) return page === 1 ? null : entries;
    for (const entry of answer.tree ?? []) entries.set(entry.path, entry);
    if (!answer.truncated || (answer.tree ?? []).length === 0) break;
  }
  return entries;
}

/** Opens the pull request, or finds the open one for the same branches (a retry). */
async function openOrFind(
  forge: GiteaForge,
  owner: string,
  repo: string,
  mr: GiteaMergeRequestInput,
): Promise<GiteaPullRequest> {
  try {
    return await forge.createPullRequest(owner, repo, {
      head: mr.source,
      base: mr.target,
      title: mr.title,
      body: mr.body,
    });
  } catch (error) {
    if (!isLoreError(error) || error.code !== "forge_conflict") throw error;
    const open = (await forge.listPullRequests(owner, repo, "open")).find(
      (pr) => pr.head.ref === mr.source && pr.base.ref === mr.target,
    );
    if (open === undefined) throw error;
    return open;
  }
}

/** A git person as Gitea's Identity. */
function person(who: GitPerson): { name: string; email: string } {
  return { name: who.name, email: who.email };
}
