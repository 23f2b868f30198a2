/**
 * Which repository of a forge a working repository's origin names (seed 004, "Как знание
 * выходит наружу": delivery into a repository on a Gitea server). Pure.
 */
import { normaliseRemoteUrl } from "./repo-identity.js";

/** A repository on a forge. */
export interface ForgeRepoRef {
  /** The owner (user or organisation), as the origin spells it. */
  owner: string;
  /** The repository name, without `.git`. */
  repo: string;
}

/**
 * The owner and name of the repository `originUrl` points at, when it is on the forge at
 * `forgeUrl` (the same host and, for a forge under a sub-path such as
 * `https://host/git/`, the same path prefix). `https://host/owner/repo.git`,
 * `https://user:token@host:3000/owner/repo`, `ssh://git@host:2222/owner/repo.git` and
 * `git@host:owner/repo.git` all name `owner/repo`; ports and credentials are ignored
 * (SSH and HTTPS ports differ), host and prefix compare without case.
 *
 * @param originUrl - the value of `remote.origin.url`.
 * @param forgeUrl - the forge's address (`[forge] url`).
 * @returns the repository, or `null` when the origin is elsewhere (or a local path), or
 *   is not exactly `<prefix>/<owner>/<repo>`.
 */
export function forgeRepoOfOrigin(originUrl: string, forgeUrl: string): ForgeRepoRef | null {
  const origin = normaliseRemoteUrl(originUrl, "/");
  const forge = normaliseRemoteUrl(forgeUrl, "/");
  if (origin === undefined || forge === undefined || origin.startsWith("file:")) return null;
  if (!origin.startsWith(`${forge}/`)) return null;
  const rest = origin.slice(forge.length + 1).split("/");
  if (rest.length !== 2 || rest.some((part) => part === "")) return null;
  // The names as written (Gitea keeps their case in its answers), from the raw URL's end.
  const raw = originUrl
    .trim()
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "")
    .split(/[/:]/)
    .slice(-2);
  const [owner, repo] = raw.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });
  if (owner === undefined || repo === undefined || owner === "" || repo === "") return null;
  return { owner, repo };
}
