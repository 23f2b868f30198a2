import type { ErrorKind } from "../core/errors/lore-error.js";

/**
 * Exit codes of the `lore` command, one per error kind (STYLE.md habit 4: each surface maps
 * errors once). The README lists them.
 *
 * - `0` success;
 * - `1` internal error (a bug or a failing resource: git, the index);
 * - `2` invalid input: bad arguments, bad configuration, an invalid entry;
 * - `3` not found: no such entry, file or folder;
 * - `4` conflict: the file already exists;
 * - `5` forbidden, unauthenticated (no token, or one that is not valid), or a paid address
 *   the server's edition lacks (`license_required`); `6` unavailable or rate-limited (try later);
 * - `7` `lore check` found *wrong* files (skipped on indexing).
 */
export const EXIT_CODES = {
  ok: 0,
  internal: 1,
  invalid_input: 2,
  not_found: 3,
  conflict: 4,
  forbidden: 5,
  unauthenticated: 5,
  unavailable: 6,
  rate_limited: 6,
  license_required: 5,
  check_failed: 7,
} as const;

/**
 * The exit code for a refusal's kind.
 *
 * @param kind - the {@link ErrorKind} of a LoreError.
 */
export function exitCodeFor(kind: ErrorKind): number {
  return EXIT_CODES[kind];
}
