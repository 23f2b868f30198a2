/**
 * Names on the team server (seed 004, team server: hosted repositories `owner/name`, users,
 * groups). Pure. A name becomes a folder (`<data>/repos/<owner>/<name>.git`) and a part of
 * git URLs and command lines, so the alphabet is small and closed: lower-case ASCII
 * letters, digits, `.`, `_`, `-`.
 *
 * Upper case is refused with the lower-case form as the hint rather than folded: a name
 * folded silently would answer to two spellings in URLs and scripts; refusing keeps one.
 */
import { LoreError } from "../errors/lore-error.js";

/** Longest part of a name (owner, repository, user, group), characters. */
export const NAME_MAX_LENGTH = 100;

/** A repository name split: `owner/name`. */
export interface RepoName {
  owner: string;
  name: string;
  /** `owner/name`. */
  fullName: string;
}

/** Why a part of a name is refused, in English and Russian; undefined when it is fine. */
export function nameProblem(part: string): { en: string; ru: string } | undefined {
  if (part.length === 0) return { en: "a part is empty", ru: "пустая часть" };
  if (part.length > NAME_MAX_LENGTH) {
    return {
      en: `“${part.slice(0, 20)}…” is over ${NAME_MAX_LENGTH} characters`,
      ru: `«${part.slice(0, 20)}…» длиннее ${NAME_MAX_LENGTH} символов`,
    };
  }
  if (/^[a-zA-Z0-9._-]+$/.test(part) && /[A-Z]/.test(part)) {
    return {
      en: `upper case is not allowed; write it lower-case: ${part.toLowerCase()}`,
      ru: `заглавные буквы не допускаются; напишите строчными: ${part.toLowerCase()}`,
    };
  }
  if (!/^[a-z0-9._-]+$/.test(part)) {
    return {
      en: "only a-z, 0-9, “.”, “_” and “-” are allowed",
      ru: "допускаются только a-z, 0-9, «.», «_» и «-»",
    };
  }
  if (part.startsWith("-") || part.startsWith(".")) {
    return {
      en: "a part may not start with “-” or “.”",
      ru: "часть не может начинаться с «-» или «.»",
    };
  }
  if (part.includes("..")) return { en: "“..” is not allowed", ru: "«..» не допускается" };
  return undefined;
}

/**
 * Validates a hosted repository's name `owner/name`: exactly one `/`; each part 1–100 of
 * `[a-z0-9._-]`, not starting with `-` or `.`, without `..`; the name not ending in `.git`
 * (the server adds it to the folder, `acme/app.git` is the URL of `acme/app`).
 *
 * @param fullName - the name as given.
 * @returns its parts.
 * @throws LoreError `invalid_repo_name` with the reason (en + ru); `data.name` is the name.
 */
export function parseRepoName(fullName: string): RepoName {
  const refuse = (reason: { en: string; ru: string }): never => {
    throw new LoreError(
      "invalid_repo_name",
      { name: quoteName(fullName), reason: reason.en, reason_ru: reason.ru },
      { data: { name: fullName } },
    );
  };
  const parts = fullName.split("/");
  if (parts.length !== 2) {
    return refuse({
      en: "give it as owner/name, with exactly one “/” (e.g. acme/app)",
      ru: "укажите его как владелец/имя, ровно с одной «/» (например, acme/app)",
    });
  }
  const [owner, name] = parts as [string, string];
  const lower = fullName.toLowerCase();
  if (
    lower !== fullName &&
    nameProblem(owner.toLowerCase()) === undefined &&
    nameProblem(name.toLowerCase()) === undefined
  ) {
    return refuse({
      en: `upper case is not allowed; write it lower-case: ${lower}`,
      ru: `заглавные буквы не допускаются; напишите строчными: ${lower}`,
    });
  }
  const problem = nameProblem(owner) ?? nameProblem(name);
  if (problem !== undefined) return refuse(problem);
  if (name.endsWith(".git")) {
    return refuse({
      en: `leave out “.git” (the server adds it): ${owner}/${name.slice(0, -4)}`,
      ru: `уберите «.git» (сервер добавляет его сам): ${owner}/${name.slice(0, -4)}`,
    });
  }
  return { owner, name, fullName: `${owner}/${name}` };
}

/**
 * Validates a user or group name: 1–100 of `[a-z0-9._-]`, not starting with `-` or `.`,
 * without `..`.
 *
 * @param name - the name as given.
 * @param what - `user` or `group`, for the message.
 * @returns the name.
 * @throws LoreError `invalid_input` naming the reason (en + ru).
 */
export function validateAccountName(name: string, what: "user" | "group"): string {
  const problem = nameProblem(name);
  if (problem === undefined) return name;
  const ru = what === "user" ? "имя пользователя" : "имя группы";
  throw new LoreError("invalid_input", {
    reason: `${what} name ${quoteName(name)} is refused: ${problem.en}`,
    reason_ru: `${ru} ${quoteName(name)} отклонено: ${problem.ru}`,
  });
}

/**
 * A valid user name made from any text, for accounts Lore creates itself (the OS user
 * `lore serve` makes on a first start): lower-cased, every run of other characters turned
 * into `-`, leading `-`/`.` and `..` removed, cut to {@link NAME_MAX_LENGTH}; `admin` when
 * nothing is left (`Anna Smith` → `anna-smith`, `Σ` → `admin`).
 *
 * @param raw - e.g. `os.userInfo().username`.
 */
export function accountNameFrom(raw: string): string {
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+/, "")
    .slice(0, NAME_MAX_LENGTH);
  return nameProblem(name) === undefined ? name : "admin";
}

/**
 * Validates a default branch name for a new repository: what `git check-ref-format
 * --branch` accepts, kept to a safe subset (no leading `-`, no `..`, no control characters,
 * spaces or `~^:?*[\`, no `@{`, no part starting with `.` or ending in `.lock`, at most 200
 * characters), and a branch name, not a ref: not `HEAD`, not starting with `refs/`.
 *
 * @param branch - the branch name (`main`, `release/1.0`).
 * @returns the name.
 * @throws LoreError `invalid_input` with the reason.
 */
export function validateBranchName(branch: string): string {
  if (isBranchName(branch)) return branch;
  throw new LoreError("invalid_input", {
    reason: `${quoteName(branch)} is not a branch name git accepts`,
    reason_ru: `${quoteName(branch)} — не имя ветки, которое примет git`,
  });
}

/** The longest branch name Lore accepts, characters. */
export const BRANCH_NAME_MAX = 200;

/**
 * Whether a name is a branch name Lore accepts: the safe subset of `git check-ref-format
 * --branch` that {@link validateBranchName} describes (the one rule for a new repository's
 * default branch, a draft's branch, a delivery's and a merge request's branches). Pure.
 *
 * @param branch - the name as given (no trimming).
 */
export function isBranchName(branch: string): boolean {
  return !(
    branch.length === 0 ||
    branch.length > BRANCH_NAME_MAX ||
    branch.startsWith("-") ||
    branch.startsWith("/") ||
    branch.endsWith("/") ||
    branch.endsWith(".") ||
    branch.includes("..") ||
    branch.includes("//") ||
    branch.includes("@{") ||
    branch === "@" ||
    // A full ref or HEAD is not a branch name: `refs/heads/x` would make `refs/heads/refs/heads/x`.
    branch === "HEAD" ||
    branch.startsWith("refs/") ||
    /[\s\p{Cc}~^:?*[\\]/u.test(branch) ||
    branch.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"))
  );
}

/** A name quoted for a message, shortened and with control characters escaped. */
function quoteName(name: string): string {
  const short = name.length > 120 ? `${name.slice(0, 120)}…` : name;
  return JSON.stringify(short);
}
