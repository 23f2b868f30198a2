/**
 * The rules of a merge request, pure (seed 004, "Как знание выходит наружу": «защита ветки
 * … требуемые одобрения … действуют на него так же, как на любой другой»): what a request's
 * title, body and branches may be, how many approvals its target needs, and the merge
 * commit's message.
 */
import { LoreError } from "../errors/lore-error.js";
import { matchBranchPattern } from "../push/branch-protection.js";
import { BRANCH_NAME_MAX, isBranchName } from "../repos/repo-name.js";

/** Longest title, characters. */
export const MR_TITLE_MAX = 200;
/** Longest body, bytes (UTF-8): the limit of one entry file. */
export const MR_BODY_MAX_BYTES = 64 * 1024;

function refuse(en: string, ru: string): never {
  throw new LoreError("invalid_input", { reason: en, reason_ru: ru });
}

/**
 * Checks a branch name as given by a client (without `refs/heads/`), the way `git
 * check-ref-format --branch` would refuse it, and never a git option.
 *
 * @param branch - the name.
 * @param what - `source` or `target`, for the message.
 * @returns the name.
 * @throws LoreError `invalid_input` naming the field and the reason.
 */
export function checkBranchName(branch: string, what: string): string {
  if (branch.length === 0 || branch.length > BRANCH_NAME_MAX) {
    refuse(
      `${what}: give a branch name of 1 to ${BRANCH_NAME_MAX} characters`,
      `${what}: нужно имя ветки от 1 до ${BRANCH_NAME_MAX} символов`,
    );
  }
  if (!isBranchName(branch)) {
    refuse(
      `${what}: ${JSON.stringify(branch.slice(0, 80))} is not a branch name (give it without refs/heads/; no “..”, spaces or ~^:?*[\\)`,
      `${what}: ${JSON.stringify(branch.slice(0, 80))} — не имя ветки (без refs/heads/; нельзя «..», пробелы и ~^:?*[\\)`,
    );
  }
  return branch;
}

/**
 * Checks a title (trimmed) and a body.
 *
 * @returns the trimmed title and the body as given.
 * @throws LoreError `invalid_input`: an empty or too long title, a body over
 *   {@link MR_BODY_MAX_BYTES} bytes.
 */
export function checkTitleAndBody(title: string, body: string): { title: string; body: string } {
  const trimmed = title.trim();
  if (trimmed.length === 0 || trimmed.length > MR_TITLE_MAX || /[\p{Cc}]/u.test(trimmed)) {
    refuse(
      `title: give 1 to ${MR_TITLE_MAX} characters on one line`,
      `title: нужно от 1 до ${MR_TITLE_MAX} символов в одну строку`,
    );
  }
  const bytes = Buffer.byteLength(body, "utf8");
  if (bytes > MR_BODY_MAX_BYTES) {
    refuse(
      `body: ${bytes} bytes, over the limit of ${MR_BODY_MAX_BYTES}`,
      `body: ${bytes} байт, больше предела ${MR_BODY_MAX_BYTES}`,
    );
  }
  return { title: trimmed, body };
}

/**
 * The approvals a merge into `branch` needs: the largest `requiredApprovals` of the rules
 * whose pattern matches it (0 when none does or none asks).
 *
 * @param rules - the repository's branch rules.
 * @param branch - the target branch.
 */
export function requiredApprovals(
  rules: readonly { pattern: string; requiredApprovals?: number }[],
  branch: string,
): number {
  let most = 0;
  for (const rule of rules) {
    if (matchBranchPattern(rule.pattern, branch))
      most = Math.max(most, rule.requiredApprovals ?? 0);
  }
  return most;
}

/**
 * The merge commit's message: `Merge request #N: <title>`, a blank line, the branches, and
 * one `Approved-by:` trailer per approver.
 */
export function mergeMessage(request: {
  number: number;
  title: string;
  source: string;
  target: string;
  approvers: readonly string[];
}): string {
  const trailers = request.approvers.map((user) => `Approved-by: ${user}`);
  return [
    `Merge request #${request.number}: ${request.title}`,
    "",
    `Merge branch '${request.source}' into '${request.target}'`,
    ...(trailers.length === 0 ? [] : ["", ...trailers]),
    "",
  ].join("\n");
}
