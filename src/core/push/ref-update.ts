/**
 * The ref updates git gives the `pre-receive` and `post-receive` hooks on stdin (githooks(5)):
 * one line `<old> SP <new> SP <ref>` per updated ref; an all-zero object name stands for
 * "no object" (a ref created or deleted). Pure (seed 004, "Разбор при отправке").
 */

/** One ref update of a push. */
export interface RefUpdate {
  /** The commit the ref pointed at before the push; `null` when the ref is new. */
  oldSha: string | null;
  /** The commit the ref points at after the push; `null` when the ref is deleted. */
  newSha: string | null;
  /** The full ref name, e.g. `refs/heads/main`. */
  ref: string;
}

const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ZERO = /^0+$/;

/**
 * Parses git's hook input. Lines that are not three fields with object names are left out
 * (never thrown: a hook must not fail on odd input).
 *
 * @param text - the whole stdin of the hook, UTF-8 (ref names are git's bytes; a non-UTF-8
 *   ref name decodes with U+FFFD and then matches no branch rule literally).
 * @returns the updates in git's order.
 */
export function parseRefUpdates(text: string): RefUpdate[] {
  const updates: RefUpdate[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.replace(/\r$/, "");
    if (trimmed.length === 0) continue;
    const first = trimmed.indexOf(" ");
    const second = trimmed.indexOf(" ", first + 1);
    if (first < 0 || second < 0) continue;
    const oldSha = trimmed.slice(0, first);
    const newSha = trimmed.slice(first + 1, second);
    const ref = trimmed.slice(second + 1);
    if (!OBJECT_NAME.test(oldSha) || !OBJECT_NAME.test(newSha) || ref.length === 0) continue;
    updates.push({
      oldSha: ZERO.test(oldSha) ? null : oldSha,
      newSha: ZERO.test(newSha) ? null : newSha,
      ref,
    });
  }
  return updates;
}

/**
 * The branch name of a ref: `refs/heads/feature/x` → `feature/x`.
 *
 * @returns the branch, or `undefined` for a ref that is not a branch (a tag, a note).
 */
export function branchOf(ref: string): string | undefined {
  return ref.startsWith("refs/heads/") && ref.length > "refs/heads/".length
    ? ref.slice("refs/heads/".length)
    : undefined;
}
