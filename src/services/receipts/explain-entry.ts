/**
 * `lore why <id>` (README "Load receipts"): gathers one entry and the receipts for
 * `core/receipts/why.ts`.
 */
import { LoreError } from "../../core/errors/lore-error.js";
import { explainEntry, type WhyAnswer } from "../../core/receipts/why.js";
import { analyzeText } from "../../core/text/analyze-text.js";
import { countingRepo } from "../../index/counters.js";
import type { EntryIndex } from "../../index/entry-index.js";

/** Most receipts one `why` looks at, each way (surfaced in; the user's newest). */
export const WHY_RECEIPTS = 500;

/**
 * Explains when and why one entry surfaced for a user, and why it did not.
 *
 * @param index - the index.
 * @param input - `id`; `repo`: the index repository name when several hold the id; `user`:
 *   whose receipts (`surfaced` lists anyone's on a local index: its one user).
 * @returns see `WhyAnswer`.
 * @throws LoreError `entry_not_found` (no entry holds the id, or not in `repo`),
 *   `ambiguous_id` (several repositories hold it and no `repo` was given).
 */
export function explainEntryFor(
  index: EntryIndex,
  input: { id: string; repo?: string; user: string },
): WhyAnswer {
  const all = index.entriesById(input.id);
  const held =
    input.repo === undefined
      ? all
      : all.filter((e) => e.repo === input.repo || countingRepo(e.repo) === input.repo);
  // A draft and the file it became hold one id; prefer the file.
  const files = held.filter((e) => !e.repo.startsWith("draft:"));
  const candidates = files.length > 0 ? files : held;
  const entry = candidates[0];
  if (entry === undefined) throw new LoreError("entry_not_found", { id: input.id });
  if (candidates.length > 1) {
    throw new LoreError("ambiguous_id", {
      id: input.id,
      count: candidates.length,
      repos: candidates.map((e) => e.repo).join(", "),
    });
  }
  const repo = countingRepo(entry.repo);
  const surfacedIn = index.receipts.ofEntry(repo, entry.id, WHY_RECEIPTS);
  const recent = index.receipts.list({ user: input.user, limit: WHY_RECEIPTS });
  return explainEntry(
    {
      id: entry.id,
      repo,
      path: entry.path,
      reachable: entry.reachable,
      unmetMechanisms: entry.unmetMechanisms,
      contract: entry.contract,
      textStems: new Set(analyzeText(`${entry.summary}\n${entry.body}`)),
    },
    surfacedIn,
    recent,
  );
}
