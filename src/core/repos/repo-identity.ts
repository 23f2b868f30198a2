/**
 * A repository's identity (the name its entries are stored under), so that a repository
 * moved or cloned a second time stays one repository (seed 004, "Указатель"). Pure.
 *
 * Order: the origin remote's URL, normalised (`github.com/acme/api` for
 * `git@github.com:Acme/api.git`, `https://user:token@github.com/acme/api/` and
 * `ssh://git@github.com:22/acme/api.git` alike); else the repository's root commit
 * (`commit:<sha>`); else its absolute path.
 */

/** The prefix of an identity taken from the root commit. */
export const COMMIT_IDENTITY_PREFIX = "commit:";

/**
 * Normalises a remote URL into an identity: scheme, credentials, port, a trailing `/` and
 * `.git` are dropped, host and path are lower-cased (the major forges treat them so);
 * a local path (`/srv/git/api.git`, `file:///srv/git/api.git`, `../api`) becomes
 * `file:<absolute path without .git>`, resolved against `base`.
 *
 * @param url - the value of `remote.origin.url`.
 * @param base - the folder a relative local path is resolved against (the repository's).
 * @returns the identity, or `undefined` for a blank value.
 */
export function normaliseRemoteUrl(url: string, base: string): string | undefined {
  const raw = url.trim();
  if (raw === "") return undefined;
  const strip = (path: string) =>
    path
      .replace(/\/+$/, "")
      .replace(/\.git$/i, "")
      .replace(/\/+$/, "");
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(raw);
  if (scheme !== null) {
    const kind = (scheme[1] as string).toLowerCase();
    const rest = scheme[2] as string;
    if (kind === "file")
      return `file:${strip(joinPath(base, decodeURIComponentSafe(rest.replace(/^[^/]*/, ""))))}`;
    const slash = rest.indexOf("/");
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? "" : rest.slice(slash);
    const host = authority.replace(/^.*@/, "").replace(/:\d*$/, "").toLowerCase();
    return `${host}${strip(path).toLowerCase()}`;
  }
  // scp-like `user@host:path` (no slash before the colon, not a Windows drive letter)
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.*)$/.exec(raw);
  if (scp !== null && !/^[a-z]$/i.test(scp[1] as string)) {
    const path = (scp[2] as string).replace(/^\/*/, "/");
    return `${(scp[1] as string).toLowerCase()}${strip(path).toLowerCase()}`;
  }
  return `file:${strip(joinPath(base, raw))}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** POSIX-style resolution of `path` against `base`, `.` and `..` folded. */
function joinPath(base: string, path: string): string {
  const absolute = path.startsWith("/") || /^[a-z]:[\\/]/i.test(path);
  const parts = (absolute ? path : `${base}/${path}`).replace(/\\/g, "/").split("/");
  const out: string[] = [];
  for (const part of parts) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  const drive = /^[a-z]:$/i.test(out[0] ?? "");
  return drive ? out.join("/") : `/${out.join("/")}`;
}

/**
 * The identity of a repository from what git says about it.
 *
 * @param facts - `originUrl` (absent when there is no origin), `rootCommits` (the shas of
 *   `git rev-list --max-parents=0 HEAD`; empty with no commit) and the absolute `path`.
 * @returns the identity (see the module header).
 */
export function repoIdentity(facts: {
  originUrl?: string | undefined;
  rootCommits: readonly string[];
  path: string;
}): string {
  const remote =
    facts.originUrl === undefined ? undefined : normaliseRemoteUrl(facts.originUrl, facts.path);
  if (remote !== undefined) return remote;
  const root = [...facts.rootCommits].filter((sha) => sha !== "").sort()[0];
  if (root !== undefined) return `${COMMIT_IDENTITY_PREFIX}${root}`;
  return facts.path;
}
