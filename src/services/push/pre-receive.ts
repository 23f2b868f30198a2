import type { Lang } from "../../core/errors/localized-text.js";
import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { branchOf, type RefUpdate } from "../../core/push/ref-update.js";
import { capReport, PUSH_REPORT_MAX_LINES } from "../../core/push/report-cap.js";
import type { PushRepo } from "../../ports/push-repo.js";
import type { ServerStore } from "../../ports/server-store.js";
import { checkBranchProtection } from "./branch-protection-check.js";
import { changedKnowledgeFiles } from "./changed-knowledge-files.js";
import { type IdOwnerLookup, parsePushChanges } from "./parse-push.js";

/** What the `pre-receive` step needs (bound by `main/compose-hook.ts`). */
export interface PreReceiveDeps {
  /** The repository, read with the hook's own environment (quarantine kept). */
  repo: PushRepo;
  /** The index, read only, for duplicate ids; `undefined` when there is none yet. */
  index?: IdOwnerLookup;
  /** The server's store, for branch protection; `undefined` outside `lore serve`'s data. */
  store?: ServerStore;
  /** The repository's index name (`owner/name`). */
  repoName: string;
  /** The default branch, when known. */
  defaultBranch: string | undefined;
  /** Who pushes (`LORE_PUSHER`), when the transport said. */
  pusher?: string;
  /** The report's language. */
  lang: Lang;
  /**
   * Called once when a ref's knowledge diff takes longer than {@link WARM_UP_AFTER_MS}: the
   * parse's secret scanner is loaded meanwhile (`warmUpSecretScanner`), while `pre-receive`
   * only waits on git (a flat folder of 100k entries: `diff-tree` takes 70–80 ms). A fast
   * diff — a push that changes no knowledge file — never loads it. Default: nothing.
   */
  warmUp?: () => void;
}

/**
 * How long a ref's knowledge diff runs before {@link PreReceiveDeps.warmUp} is called, ms:
 * longer than the diff of a push that leaves the knowledge folder alone (git compares one
 * tree id), shorter than one of a large folder.
 */
export const WARM_UP_AFTER_MS = 15;

/** What `pre-receive` answers. */
export interface PreReceiveResult {
  /** Set when branch protection refuses the push: the hook prints it and exits non-zero. */
  refusal?: LoreError;
  /** The parse report for the pusher (`remote:` lines), capped at 200 plus `… and N more`. */
  lines: string[];
  /** Failures of the parse (logged; the push goes through). */
  failures: { ref: string; error: unknown }[];
}

/**
 * The `pre-receive` step (seed 004, "Разбор при отправке"): branch protection first (the
 * only refusal), then, for every branch updated, the knowledge files it changed are parsed
 * and reported — on every branch, the default one included; nothing is written (the index
 * and refs are written after the push is accepted, by `post-receive`). A failure of the
 * parse of one ref is collected in `failures`, never turned into a refusal.
 *
 * When the store cannot be read, the push is refused (`branch_protected`, "the rules could
 * not be read"): protection fails closed.
 *
 * @param deps - see {@link PreReceiveDeps}.
 * @param updates - git's input lines, parsed.
 * @returns the refusal, or the report lines and the failures.
 */
export async function preReceive(
  deps: PreReceiveDeps,
  updates: readonly RefUpdate[],
): Promise<PreReceiveResult> {
  if (deps.store !== undefined) {
    try {
      await checkBranchProtection(deps.store, deps.repo, deps.repoName, deps.pusher, updates);
    } catch (error) {
      if (isLoreError(error) && error.code === "branch_protected") {
        return { refusal: error, lines: [], failures: [] };
      }
      const reason = error instanceof Error ? error.message : String(error);
      return {
        refusal: new LoreError(
          "branch_protected",
          {
            branch: updates.map((update) => branchOf(update.ref) ?? update.ref).join(", "),
            reason: `its rules could not be read (${reason})`,
            reason_ru: `её правила не удалось прочитать (${reason})`,
          },
          { cause: error },
        ),
        lines: [],
        failures: [],
      };
    }
  }
  const lines: string[] = [];
  const failures: { ref: string; error: unknown }[] = [];
  const reported = updates.filter((update) => branchOf(update.ref) !== undefined);
  let warmUp = deps.warmUp;
  for (const update of reported) {
    try {
      const diff = changedKnowledgeFiles(deps.repo, update, deps.defaultBranch);
      let changes: Awaited<typeof diff>;
      if (warmUp === undefined) changes = await diff;
      else {
        const timer = setTimeout(() => {
          warmUp?.();
          warmUp = undefined;
        }, WARM_UP_AFTER_MS);
        try {
          changes = await diff;
        } finally {
          clearTimeout(timer);
        }
      }
      if (changes.length === 0) continue;
      const parse = await parsePushChanges(deps.repo, deps.index, changes, {
        repoName: deps.repoName,
        lang: deps.lang,
        maxLines: Number.MAX_SAFE_INTEGER,
      });
      if (parse.report.length === 0) continue;
      // Several branches in one push: each branch's lines under its name.
      if (reported.length > 1) lines.push(`${branchOf(update.ref)}:`);
      lines.push(...parse.report);
    } catch (error) {
      failures.push({ ref: update.ref, error });
    }
  }
  return { lines: capReport(lines, deps.lang, PUSH_REPORT_MAX_LINES), failures };
}
