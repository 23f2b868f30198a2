/**
 * Branch protection rules of hosted repositories (seed 004, team server: protected branch
 * patterns, who may push, whether force pushes are allowed): `lore branch
 * protect|unprotect|rules`. Enforcing them on push is the push hooks' work.
 */
import { LoreError } from "../../core/errors/lore-error.js";
import type { BranchRule, ServerStore } from "../../ports/server-store.js";
import { requireRepo, resolveSubject, subjectNames } from "./grants.js";

/** Longest branch pattern, characters. */
export const BRANCH_PATTERN_MAX = 200;

/**
 * Checks a branch pattern: a branch name, `*` and `?` allowed (`main`, `release/*`),
 * without `refs/heads/`.
 *
 * @throws LoreError `invalid_input` with the reason.
 */
export function validateBranchPattern(pattern: string): string {
  const refuse = (en: string, ru: string): never => {
    throw new LoreError("invalid_input", {
      reason: `branch pattern ${JSON.stringify(pattern.slice(0, 80))}: ${en}`,
      reason_ru: `шаблон ветки ${JSON.stringify(pattern.slice(0, 80))}: ${ru}`,
    });
  };
  if (pattern.length === 0 || pattern.length > BRANCH_PATTERN_MAX) {
    refuse(
      `give 1 to ${BRANCH_PATTERN_MAX} characters`,
      `нужно от 1 до ${BRANCH_PATTERN_MAX} символов`,
    );
  }
  if (pattern.startsWith("refs/")) {
    refuse(
      `give the branch without refs/heads/: ${pattern.replace(/^refs\/heads\//, "")}`,
      `укажите ветку без refs/heads/: ${pattern.replace(/^refs\/heads\//, "")}`,
    );
  }
  if (pattern.startsWith("-") || pattern.includes("..") || /[\s\p{Cc}~^:\\[]/u.test(pattern)) {
    refuse(
      "not a branch name pattern (no leading “-”, “..”, spaces or ~^:\\[)",
      "это не шаблон имени ветки (нельзя «-» в начале, «..», пробелы и ~^:\\[)",
    );
  }
  return pattern;
}

/**
 * Protects the branches matching `pattern` of a repository (replacing the rule of that
 * pattern): only `push` (users and `group:NAME`s; none = anyone with write access) may push,
 * force pushes refused unless `allowForcePush`; a merge request into a matching branch
 * needs `requiredApprovals` approvals (default 0; a whole number 0–100).
 *
 * @throws LoreError `invalid_input`, `repo_not_found`, `user_not_found`, `group_not_found`.
 */
export async function protectBranch(
  store: ServerStore,
  request: {
    repo: string;
    pattern: string;
    push: readonly string[];
    allowForcePush: boolean;
    requiredApprovals?: number;
  },
): Promise<BranchRule> {
  const approvals = request.requiredApprovals ?? 0;
  if (!Number.isInteger(approvals) || approvals < 0 || approvals > 100) {
    throw new LoreError("invalid_input", {
      reason: `required approvals: a whole number from 0 to 100, not ${approvals}`,
      reason_ru: `требуемые одобрения: целое число от 0 до 100, а не ${approvals}`,
    });
  }
  const repo = await requireRepo(store, request.repo);
  const rule: BranchRule = {
    repoId: repo.id,
    pattern: validateBranchPattern(request.pattern),
    pushUserIds: [],
    pushGroupIds: [],
    allowForcePush: request.allowForcePush,
    requiredApprovals: approvals,
  };
  for (const text of request.push) {
    const subject = await resolveSubject(store, text);
    (subject.kind === "user" ? rule.pushUserIds : rule.pushGroupIds).push(subject.id);
  }
  await store.protectBranch(rule);
  return rule;
}

/**
 * Removes the rule of one pattern.
 *
 * @returns false when there was none.
 * @throws LoreError `repo_not_found`.
 */
export async function unprotectBranch(
  store: ServerStore,
  request: { repo: string; pattern: string },
): Promise<boolean> {
  const repo = await requireRepo(store, request.repo);
  return store.unprotectBranch(repo.id, request.pattern);
}

/** A rule as `lore branch rules` shows it. */
export interface ListedBranchRule {
  pattern: string;
  /** Who may push: `anna`, `group:leads`; empty = anyone with write access. */
  push: string[];
  allowForcePush: boolean;
  /** Approvals a merge request into a matching branch needs. */
  requiredApprovals: number;
}

/**
 * The rules of a repository, by pattern.
 *
 * @throws LoreError `repo_not_found`.
 */
export async function listBranchRules(
  store: ServerStore,
  fullName: string,
): Promise<ListedBranchRule[]> {
  const repo = await requireRepo(store, fullName);
  const name = await subjectNames(store);
  return (await store.listBranchRules(repo.id)).map((rule) => ({
    pattern: rule.pattern,
    push: [
      ...rule.pushUserIds.map((id) => name({ kind: "user", id })),
      ...rule.pushGroupIds.map((id) => name({ kind: "group", id })),
    ],
    allowForcePush: rule.allowForcePush,
    requiredApprovals: rule.requiredApprovals ?? 0,
  }));
}
