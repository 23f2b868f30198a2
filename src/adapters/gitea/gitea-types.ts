/**
 * Wire types of the Gitea REST API v1 — only the fields Lore reads or sends, named as on
 * the wire (Gitea `modules/structs/repo.go`, `repo_file.go`). Kept apart from the domain
 * types of `ports/forge.ts` (STYLE.md, forge client row); `gitea-forge.ts` translates.
 */

/** `GET /user/repos`, `GET /repos/{owner}/{repo}` (structs.Repository). */
export interface GiteaRepository {
  name: string;
  full_name: string;
  owner: { login: string };
  /** The branch the web UI and reads default to. */
  default_branch: string;
  /** True while the repository has no commit. */
  empty: boolean;
}

/** `GET /repos/{owner}/{repo}/contents/{path}` for a file (structs.ContentsResponse). */
export interface GiteaContentsResponse {
  name: string;
  path: string;
  /** Blob sha: the compare-and-swap token of updates. */
  sha: string;
  /** `file`, `dir`, `symlink` or `submodule`. */
  type: string;
  /** Size in bytes. */
  size: number;
  /** `base64` when `content` is given. */
  encoding: string | null;
  /** Base64 text; `null` (or `""`) for blobs over the server's API blob limit — the Gitea `"content": null` case. */
  content: string | null;
}

/** Body of `POST /repos/{owner}/{repo}/contents/{path}` (structs.CreateFileOptions). */
export interface GiteaCreateFileOptions {
  /** Base64 of the new text. */
  content: string;
  message: string;
  /** Base branch; default: the repository's default branch. */
  branch?: string;
  /** Create this branch from `branch` and commit there. */
  new_branch?: string;
}

/** Body of `PUT /repos/{owner}/{repo}/contents/{path}` (structs.UpdateFileOptions). */
export interface GiteaUpdateFileOptions extends GiteaCreateFileOptions {
  /** The blob sha being replaced (compare-and-swap). */
  sha: string;
}

/** Answer of create/update (structs.FileResponse). */
export interface GiteaFileResponse {
  content: GiteaContentsResponse | null;
  commit: { sha: string };
}

/** `GET /repos/{owner}/{repo}/branches/{branch}` (structs.Branch; `commit` is a structs.PayloadCommit). */
export interface GiteaBranch {
  name: string;
  commit: { id: string; message?: string; timestamp?: string };
  /** True when a branch protection rule matches the branch. */
  protected?: boolean;
  /** Whether the token's user may push to it (false on a protected branch without push rights). */
  user_can_push?: boolean;
  /** Whether the token's user may merge into it. */
  user_can_merge?: boolean;
  /** Approvals the matching rule requires. */
  required_approvals?: number;
  /** The matching protection rule's name (`""` when none). */
  effective_branch_protection_name?: string;
}

/** A name and e-mail (structs.Identity). */
export interface GiteaIdentity {
  name: string;
  email: string;
}

/** One file of a multi-file change (structs.ChangeFileOperation). */
export interface GiteaChangeFileOperation {
  /** `create` (the path must not exist), `update` (needs `sha`) or `delete` (needs `sha`). */
  operation: "create" | "update" | "delete";
  /** Path of the new or existing file, `/`-separated. */
  path: string;
  /** The new text, base64; absent for `delete`. */
  content?: string;
  /** The blob sha being replaced or deleted (compare-and-swap of that one file). */
  sha?: string;
  /** Old path of a moved file. */
  from_path?: string;
}

/**
 * Body of `POST /repos/{owner}/{repo}/contents` (structs.ChangeFilesOptions, Gitea 1.20+):
 * every file operation lands in ONE commit. There is no field for the expected head commit.
 */
export interface GiteaChangeFilesOptions {
  files: GiteaChangeFileOperation[];
  /** The branch to commit on, or to start `new_branch` from; default: the default branch. */
  branch?: string;
  /** Create this branch from `branch` and commit there (refused when it exists). */
  new_branch?: string;
  message?: string;
  author?: GiteaIdentity;
  committer?: GiteaIdentity;
  /** ISO 8601 author and committer dates (structs.CommitDateOptions). */
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
}

/** Answer of `POST /repos/{owner}/{repo}/contents` (structs.FilesResponse), status 201. */
export interface GiteaFilesResponse {
  /** One entry per operation (`null` for a deleted file). */
  files: (GiteaContentsResponse | null)[] | null;
  /** structs.FileCommitResponse. */
  commit: {
    sha: string;
    message?: string;
    parents?: { sha: string; url?: string }[];
    tree?: { sha: string; url?: string };
  };
  verification?: { verified: boolean; reason: string };
}

/** One entry of a git tree (structs.GitEntry). */
export interface GiteaGitEntry {
  path: string;
  /** `100644`, `100755`, `040000`, `120000`, `160000`. */
  mode: string;
  /** `blob`, `tree` or `commit` (a submodule). */
  type: string;
  size: number;
  sha: string;
  url?: string;
}

/** `GET /repos/{owner}/{repo}/git/trees/{sha}?recursive=&page=&per_page=` (structs.GitTreeResponse). */
export interface GiteaGitTreeResponse {
  sha: string;
  url?: string;
  tree: GiteaGitEntry[] | null;
  /** True when more entries follow on the next page. */
  truncated: boolean;
  page: number;
  total_count: number;
}

/** A label (structs.Label). `color` comes back as six hex digits without `#`. */
export interface GiteaLabel {
  id: number;
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
  url?: string;
}

/** Body of `POST /repos/{owner}/{repo}/labels` (structs.CreateLabelOption). */
export interface GiteaCreateLabelOption {
  name: string;
  /** `#rrggbb`. */
  color: string;
  description?: string;
  exclusive?: boolean;
}

/** Body of `POST /repos/{owner}/{repo}/issues/{index}/labels` (structs.IssueLabelsOption): label ids (or names). */
export interface GiteaIssueLabelsOption {
  labels: (number | string)[];
}

/** Body of `POST /repos/{owner}/{repo}/pulls` (structs.CreatePullRequestOption). */
export interface GiteaCreatePullRequestOption {
  /** The source branch. */
  head: string;
  /** The target branch. */
  base: string;
  title: string;
  body?: string;
  /** Label ids. */
  labels?: number[];
}

/** One side of a pull request (structs.PRBranchInfo). */
export interface GiteaPRBranchInfo {
  label: string;
  ref: string;
  sha: string;
  repo_id: number;
}

/** A pull request (structs.PullRequest), the fields Lore reads. */
export interface GiteaPullRequest {
  id: number;
  /** The per-repository index shared with issues (`…/pulls/{number}`, `…/issues/{number}/labels`). */
  number: number;
  title: string;
  body: string;
  /** `open` or `closed`. */
  state: "open" | "closed";
  merged: boolean;
  html_url: string;
  head: GiteaPRBranchInfo;
  base: GiteaPRBranchInfo;
  labels: GiteaLabel[] | null;
}

/** `PATCH /repos/{owner}/{repo}` body (structs.EditRepoOption), the field Lore sets. */
export interface GiteaEditRepoOption {
  default_branch: string;
}

/** Error body of any failed call (structs.APIError). */
export interface GiteaApiError {
  message: string;
  url?: string;
}
