/**
 * Branch protection, decided (seed 004, "Разбор при отправке" and "Как знание выходит
 * наружу": server writes obey branch protection like pushes). Pure: the rules and the
 * pusher come in, a verdict goes out; `services/push/branch-protection-check.ts` loads them
 * and turns a refusal into LoreError `branch_protected`.
 */

/** The part of a stored rule (`BranchRule` of the server-store port) the decision reads. */
export interface BranchRuleView {
  /** A glob: `main`, `release/*`, `team/**`. */
  pattern: string;
  /** Users allowed to push; with `pushGroupIds` empty as well, anyone with write access. */
  pushUserIds: readonly number[];
  /** Groups whose members are allowed to push. */
  pushGroupIds: readonly number[];
  /** Force pushes and deletions are allowed. */
  allowForcePush: boolean;
}

/** Who pushes: the user id and their groups' ids; `undefined` when unknown. */
export interface PusherView {
  /** The user's name, for the message. */
  name: string;
  userId: number;
  groupIds: readonly number[];
}

/** One push to a branch, as protection judges it. */
export interface BranchPush {
  /** The branch name (`main`, not `refs/heads/main`). */
  branch: string;
  /** The old commit is not an ancestor of the new one (history rewritten). */
  force: boolean;
  /** The branch is deleted (counts as a force push). */
  deletion: boolean;
}

/** Why a push is refused, in both languages (fills `branch_protected`'s `{reason}`). */
export interface BranchRefusal {
  /** The first rule that refuses. */
  pattern: string;
  /** `not_allowed`, `force_push` or `deletion`. */
  why: "not_allowed" | "force_push" | "deletion";
  reason: string;
  reason_ru: string;
}

/**
 * Whether a branch name matches a protection pattern: `*` and `?` match within one path
 * segment (never `/`), `**` matches across segments, every other character matches itself.
 * `release/*` matches `release/1.0`, not `release/1.0/hotfix`; `**` matches every branch.
 *
 * @param pattern - the glob.
 * @param branch - the branch name.
 */
export function matchBranchPattern(pattern: string, branch: string): boolean {
  let source = "^";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`${source}$`, "u").test(branch);
}

/**
 * Decides one push against every rule whose pattern matches the branch: each must allow it
 * (the strictest wins). A rule with users or groups listed admits only them (an unknown
 * pusher is not admitted); a force push or a deletion needs `allowForcePush`.
 *
 * @param rules - the repository's rules.
 * @param push - the branch and the kind of update.
 * @param pusher - who pushes; `undefined` when the transport did not say.
 * @returns `undefined` when allowed, else the refusal.
 */
export function decideBranchPush(
  rules: readonly BranchRuleView[],
  push: BranchPush,
  pusher: PusherView | undefined,
): BranchRefusal | undefined {
  for (const rule of rules) {
    if (!matchBranchPattern(rule.pattern, push.branch)) continue;
    const listed = rule.pushUserIds.length > 0 || rule.pushGroupIds.length > 0;
    const admitted =
      !listed ||
      (pusher !== undefined &&
        (rule.pushUserIds.includes(pusher.userId) ||
          pusher.groupIds.some((id) => rule.pushGroupIds.includes(id))));
    if (!admitted) {
      const who = pusher === undefined ? "an unknown user" : pusher.name;
      const whoRu = pusher === undefined ? "неизвестному пользователю" : pusher.name;
      return {
        pattern: rule.pattern,
        why: "not_allowed",
        reason: `rule “${rule.pattern}” lets only its listed users and groups push, and ${who} is not one of them`,
        reason_ru: `правило „${rule.pattern}“ разрешает отправку только перечисленным пользователям и группам, ${whoRu} — нет`,
      };
    }
    if ((push.force || push.deletion) && !rule.allowForcePush) {
      return push.deletion
        ? {
            pattern: rule.pattern,
            why: "deletion",
            reason: `rule “${rule.pattern}” refuses deleting the branch`,
            reason_ru: `правило „${rule.pattern}“ запрещает удалять ветку`,
          }
        : {
            pattern: rule.pattern,
            why: "force_push",
            reason: `rule “${rule.pattern}” refuses force pushes (the old commit is not an ancestor of the new one)`,
            reason_ru: `правило „${rule.pattern}“ запрещает принудительную отправку (старый коммит не предок нового)`,
          };
    }
  }
  return undefined;
}
