/**
 * The environment of git children started from a hook (seed 004, "Разбор при отправке").
 * While `pre-receive` runs, the pushed objects sit in a quarantine folder that only the
 * hook's own environment points at (`GIT_QUARANTINE_PATH`, `GIT_OBJECT_DIRECTORY`,
 * `GIT_ALTERNATE_OBJECT_DIRECTORIES`, githooks(5) "pre-receive"): reads of the hook's own
 * repository keep those variables; a git command aimed at any other repository must run
 * without the repository-location variables git exports to hooks, or it would act on the
 * hook's repository instead. Pure.
 */

/** The variables that make a hook's quarantined objects visible to a child git. */
export const QUARANTINE_VARIABLES = [
  "GIT_QUARANTINE_PATH",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
] as const;

/** The repository-location variables git may export to a hook (git(1) "Environment"). */
export const REPOSITORY_LOCATION_VARIABLES = [
  "GIT_DIR",
  "GIT_COMMON_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_QUARANTINE_PATH",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_CEILING_DIRECTORIES",
  "GIT_DISCOVERY_ACROSS_FILESYSTEM",
  "GIT_REPLACE_REF_BASE",
  "GIT_GRAFT_FILE",
  "GIT_SHALLOW_FILE",
] as const;

/**
 * The variables of a hook's environment that a child git reading the hook's own
 * repository keeps (added to `runGit`'s isolated environment).
 *
 * @param env - the hook's environment (`process.env`).
 * @returns the quarantine variables that are set; empty outside a hook.
 */
export function hookReadEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of QUARANTINE_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value.length > 0) out[name] = value;
  }
  return out;
}

/**
 * A hook's environment without the repository-location variables: for a child aimed at
 * another repository (a process that is not started through `runGit`, whose environment is
 * isolated already).
 *
 * @param env - the hook's environment.
 * @returns a copy without {@link REPOSITORY_LOCATION_VARIABLES} (nor any other `GIT_CONFIG*`
 *   passed as parameters).
 */
export function withoutRepositoryLocation(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const drop = new Set<string>(REPOSITORY_LOCATION_VARIABLES);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || drop.has(name) || name.startsWith("GIT_CONFIG_PARAMETERS")) continue;
    out[name] = value;
  }
  return out;
}

/**
 * Set by `lore serve` in the environment of the git processes it runs (and so of their
 * hooks): the server brings the index up to a push itself, in its own process, once
 * `receive-pack` has ended, so `post-receive` leaves the index alone. One writer of the
 * index while the server runs: a hook process taking the index's write lock would contend
 * with the server's own writes (counts, drafts) and could wait behind them for long.
 */
export const INDEXED_BY_SERVER_ENV = "LORE_INDEXED_BY_SERVER";
