/**
 * Which hosted repository and which git service a git request names, over smart HTTP
 * (`/{owner}/{name}.git/info/refs?service=…`, `/git-upload-pack`, `/git-receive-pack`) and
 * over SSH (`git-upload-pack '/acme/app.git'`). Pure: the transports (http/git, ssh) check
 * the request with these functions before any rights check and before git runs, so a
 * path with `..`, `%2e%2e`, a name starting with `-` or anything that is not
 * `owner/name.git` never reaches git (seed 004, team server; git over HTTP and SSH).
 */
import { nameProblem } from "./repo-name.js";

/** The two git services Lore serves: fetch/clone (`upload-pack`) and push (`receive-pack`). */
export type GitService = "git-upload-pack" | "git-receive-pack";

/** What a git service needs on the repository: fetch needs `repo:read`, push `repo:write`. */
export function needOf(service: GitService): "repo:read" | "repo:write" {
  return service === "git-receive-pack" ? "repo:write" : "repo:read";
}

/**
 * Why a git request was refused before anything else ran:
 * - `not_git_route`: not one of the three smart-HTTP endpoints (dumb HTTP, another file,
 *   another method) — HTTP 404;
 * - `dot_segment`: a `.`/`..` segment, raw or percent-encoded, or an encoded `/` or `\` —
 *   HTTP 400 `invalid_input`;
 * - `control_character`: a segment that decodes to a NUL or another control character
 *   (`%00`, `%0a`, `%7f`) — HTTP 400 `invalid_input`, naming the character;
 * - `bad_encoding`: a segment whose percent-encoding does not decode (`%zz`, `%e2`) —
 *   HTTP 400 `invalid_input`;
 * - `invalid_repo_name`: `owner` or `name` is not a repository name (a leading `-`, a
 *   character outside letters, digits, `.`, `-`, `_`) — HTTP 400 `invalid_repo_name`.
 */
export type GitPathRefusal =
  | { kind: "not_git_route" }
  | { kind: "dot_segment"; segment: string }
  | {
      kind: "control_character";
      segment: string;
      /** The first control character, as `U+0000`. */
      character: string;
    }
  | { kind: "bad_encoding"; segment: string }
  | { kind: "invalid_repo_name"; name: string; reason: { en: string; ru: string } };

/** A smart-HTTP request that names a repository and a service. */
export interface GitHttpTarget {
  owner: string;
  name: string;
  /** `owner/name` (no `.git`). */
  fullName: string;
  /** `info/refs` (the ref advertisement, GET) or the service's POST endpoint. */
  endpoint: "info/refs" | "rpc";
  /** The service: from `?service=` for `info/refs`, from the path for a POST. */
  service: GitService;
}

/**
 * Checks one part of `owner/name` (without `.git`) by the hosted repositories' naming rule
 * ({@link nameProblem}).
 *
 * @returns undefined when it is a name; else why not (English and Russian).
 */
export function repoSegmentProblem(segment: string): { en: string; ru: string } | undefined {
  const problem = nameProblem(segment);
  if (problem !== undefined) return problem;
  if (segment.endsWith(".git")) {
    return { en: "it ends with “.git” twice", ru: "«.git» в конце дважды" };
  }
  return undefined;
}

/**
 * Checks `owner` and `name` (without `.git`) together: a name that is fine but for its upper
 * case gets the whole lower-case name as the hint (`ACME/App` → `acme/app`, as
 * `parseRepoName` gives it), not just the first part's; otherwise the first part's problem
 * ({@link repoSegmentProblem}).
 *
 * @returns undefined when both parts are a name; else why not (English and Russian).
 */
export function repoPartsProblem(
  owner: string,
  name: string,
): { en: string; ru: string } | undefined {
  const full = `${owner}/${name}`;
  const lower = full.toLowerCase();
  if (
    lower !== full &&
    repoSegmentProblem(owner.toLowerCase()) === undefined &&
    repoSegmentProblem(name.toLowerCase()) === undefined
  ) {
    return {
      en: `upper case is not allowed; write it lower-case: ${lower}`,
      ru: `заглавные буквы не допускаются; напишите строчными: ${lower}`,
    };
  }
  return repoSegmentProblem(owner) ?? repoSegmentProblem(name);
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Parses the request target of a smart-HTTP git request.
 *
 * @param method - the HTTP method (`GET` for `info/refs`, `POST` for the services).
 * @param rawPath - the path as sent, before `?`, still percent-encoded (e.g.
 *   `/acme/app.git/info/refs`).
 * @param serviceParam - the `service` query parameter, if any.
 * @returns the target, or the refusal.
 */
export function parseGitHttpPath(
  method: string,
  rawPath: string,
  serviceParam: string | undefined,
): { ok: true; target: GitHttpTarget } | { ok: false; refusal: GitPathRefusal } {
  const raw = rawPath.split("/");
  const segments: string[] = [];
  for (const part of raw.slice(1)) {
    const decoded = decodeSegment(part);
    if (decoded === undefined) {
      return { ok: false, refusal: { kind: "bad_encoding", segment: part } };
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are refused
    const control = /[\x00-\x1f\x7f]/.exec(decoded);
    if (control !== null) {
      const character = `U+${(control[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
      return { ok: false, refusal: { kind: "control_character", segment: part, character } };
    }
    if (/[/\\]/.test(decoded) || decoded === "." || decoded === "..") {
      return { ok: false, refusal: { kind: "dot_segment", segment: part } };
    }
    segments.push(decoded);
  }
  if (raw[0] !== "" || segments.length < 3) return notRoute();
  const [owner = "", repoPart = "", ...rest] = segments;
  if (!repoPart.endsWith(".git")) return notRoute();
  const name = repoPart.slice(0, -".git".length);
  const reason = repoPartsProblem(owner, name);
  if (reason !== undefined) {
    return { ok: false, refusal: { kind: "invalid_repo_name", name: `${owner}/${name}`, reason } };
  }
  const tail = rest.join("/");
  const base = { owner, name, fullName: `${owner}/${name}` };
  if (tail === "info/refs" && method === "GET") {
    if (serviceParam !== "git-upload-pack" && serviceParam !== "git-receive-pack") {
      return notRoute(); // dumb HTTP (no service) or an unknown service
    }
    return { ok: true, target: { ...base, endpoint: "info/refs", service: serviceParam } };
  }
  if ((tail === "git-upload-pack" || tail === "git-receive-pack") && method === "POST") {
    return { ok: true, target: { ...base, endpoint: "rpc", service: tail } };
  }
  return notRoute();
}

function notRoute(): { ok: false; refusal: GitPathRefusal } {
  return { ok: false, refusal: { kind: "not_git_route" } };
}

/** An SSH exec request that names a service and a repository. */
export interface GitSshCommand {
  service: GitService;
  owner: string;
  name: string;
  /** `owner/name` (no `.git`). */
  fullName: string;
}

/**
 * Parses the command of an SSH exec request. Accepted: the forms git sends,
 * `git-upload-pack '/acme/app.git'` and `git-receive-pack 'acme/app.git'` (single-quoted or
 * bare, with or without a leading `/`, `.git` optional), and `git upload-pack …` with a
 * space. Anything else (`sh`, `ls`, `git-upload-pack --help`, two paths, a quote inside the
 * path) is refused.
 *
 * @param command - the exec request's command line.
 * @returns the command, or the refusal (`not_git_route` for a command that is not one of
 *   the two services with one repository path).
 */
export function parseGitSshCommand(
  command: string,
): { ok: true; command: GitSshCommand } | { ok: false; refusal: GitPathRefusal } {
  const match = /^git[- ](upload-pack|receive-pack) +(?:'([^'\\]*)'|([^\s'"\\-][^\s'"\\]*))$/.exec(
    command.trim(),
  );
  if (match === null) return notRoute();
  const service: GitService = match[1] === "receive-pack" ? "git-receive-pack" : "git-upload-pack";
  const path = (match[2] ?? match[3] ?? "").replace(/^\//, "").replace(/\/$/, "");
  const segments = path.split("/");
  for (const part of segments) {
    if (part === "." || part === "..") {
      return { ok: false, refusal: { kind: "dot_segment", segment: part } };
    }
  }
  if (segments.length !== 2) return notRoute();
  const [owner = "", rawName = ""] = segments;
  const name = rawName.endsWith(".git") ? rawName.slice(0, -".git".length) : rawName;
  const reason = repoPartsProblem(owner, name);
  if (reason !== undefined) {
    return { ok: false, refusal: { kind: "invalid_repo_name", name: `${owner}/${name}`, reason } };
  }
  return { ok: true, command: { service, owner, name, fullName: `${owner}/${name}` } };
}
