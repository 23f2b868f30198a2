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

/** `GET /repos/{owner}/{repo}/branches/{branch}` (structs.Branch). */
export interface GiteaBranch {
  name: string;
  commit: { id: string };
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
