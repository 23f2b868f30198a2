/**
 * Keeps the protection marker of hosted repositories in step with their branch rules (seed
 * 004, "Разбор при отправке": branch protection is the one refusal, and it fails closed).
 * The `pre-receive` script refuses a push it could not check (node or Lore missing, the
 * hook process failed) only in a repository that holds the marker
 * (`core/push/hook-script.ts`, `PROTECTED_MARKER`); everywhere else such a push goes
 * through, as a parse failure must.
 */
import { existsSync } from "node:fs";
import { rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PROTECTED_MARKER } from "../../core/push/hook-script.js";
import type { ServerStore } from "../../ports/server-store.js";
import { bareRepoPath } from "../access/hosted-repos.js";

/** The marker's text (read by no one: its presence is what counts). */
const MARKER_TEXT =
  "This repository has branch protection rules in Lore's server store: a push Lore's\n" +
  "pre-receive hook cannot check is refused. Written by lore serve / lore branch protect.\n";

/**
 * Writes or removes the marker of one bare repository.
 *
 * @param bareDir - the bare repository's folder; nothing is done when it does not exist.
 * @param protectedBranches - whether the repository has at least one protection rule.
 * @returns whether the marker is there afterwards (false when the folder is missing).
 */
export async function writeProtectionMarker(
  bareDir: string,
  protectedBranches: boolean,
): Promise<boolean> {
  const info = await stat(bareDir).catch(() => null);
  if (info === null || !info.isDirectory()) return false;
  const file = join(bareDir, PROTECTED_MARKER);
  if (!protectedBranches) {
    await rm(file, { force: true });
    return false;
  }
  if (!existsSync(file)) await writeFile(file, MARKER_TEXT, { mode: 0o644 });
  return true;
}

/**
 * Brings one hosted repository's marker in step with its rules in the store (after `lore
 * branch protect|unprotect`, the REST routes of the same, and at `lore serve` start).
 *
 * @param store - the server's store.
 * @param dataDir - the server's data folder (the bare repositories under `repos/`).
 * @param fullName - `owner/name`; a repository the store does not know: nothing done.
 * @returns whether the marker is there afterwards.
 */
export async function syncProtectionMarker(
  store: ServerStore,
  dataDir: string,
  fullName: string,
): Promise<boolean> {
  const repo = await store.getRepo(fullName);
  if (repo === undefined) return false;
  const rules = await store.listBranchRules(repo.id);
  return writeProtectionMarker(bareRepoPath(dataDir, repo.fullName), rules.length > 0);
}
