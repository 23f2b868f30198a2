/**
 * `lore deliver --forge`: delivery of the current repository's drafts into its origin on
 * the configured Gitea server (seed 004, "Как знание выходит наружу"; the issue's "For
 * repositories on a Gitea server"). Composition only: the settings' `[forge]`, the
 * repository's origin, and the Gitea adapter.
 */

import { runGit } from "../adapters/git-cli/run-git.js";
import { type GiteaDelivery, giteaDelivery } from "../adapters/gitea/gitea-delivery-target.js";
import { GiteaForge } from "../adapters/gitea/gitea-forge.js";
import { forgeRepoOfOrigin } from "../core/repos/forge-origin.js";
import type { LoreSettings } from "./load-config.js";
import { createConfiguredForge, type ForgeEnv } from "./load-forge.js";

/** What `lore deliver --forge` delivers through: the Gitea target and the repository it is. */
export interface GiteaDeliveryFor extends GiteaDelivery {
  /** The repository's owner on Gitea, as the origin names it. */
  owner: string;
  /** The repository's name on Gitea. */
  repo: string;
}

/**
 * The Gitea delivery for the working repository at `workTop`, when its `origin` remote
 * points at the configured Gitea (`[forge] kind = "gitea"`, `url`; the token of
 * `auth.toml`'s `[gitea]`): `https://host/owner/repo.git`, `git@host:owner/repo.git` and
 * the other forms {@link forgeRepoOfOrigin} reads. Pass `target`, `openMergeRequest`,
 * `checkWrite` and `isStale` to `deliverDrafts`; its `repo` stays the local repository's
 * identity (the drafts' key in the local index). The commits land on Gitea, not in the
 * clone: path 1 writes the branch as Gitea has it (the user's next `git pull` brings the
 * files; a branch that exists only locally is `branch_not_found` — use path 2).
 *
 * @param settings - the loaded settings (`forge`).
 * @param env - the environment (`XDG_CONFIG_HOME`, `HOME` for `auth.toml`).
 * @param workTop - the working repository's top folder.
 * @returns the delivery, or `null` when no Gitea is configured, the repository has no
 *   origin, or the origin is on another host.
 * @throws LoreError `config_invalid` (no token), `auth_file_insecure`, `git_failed`; with
 *   no `[forge] user`, the forge's errors from `GET /user`.
 */
export async function giteaDeliveryFor(
  settings: LoreSettings,
  env: ForgeEnv,
  workTop: string,
): Promise<GiteaDeliveryFor | null> {
  const forgeSettings = settings.forge;
  if (forgeSettings === undefined) return null;
  const config = forgeSettings.config;
  const kind = config.kind ?? (config.root !== undefined ? "local" : "gitea");
  if (kind !== "gitea" || config.url === undefined) return null;
  const origin = await runGit({
    cwd: workTop,
    args: ["config", "--get", "remote.origin.url"],
    okExitCodes: [1],
  });
  const url = origin.exitCode === 0 ? origin.stdout.toString("utf8").trim() : "";
  const where = url === "" ? null : forgeRepoOfOrigin(url, config.url);
  if (where === null) return null;
  const configured = await createConfiguredForge(config, {
    env,
    base: forgeSettings.base,
    authPath: forgeSettings.authPath,
  });
  if (configured === null || !(configured.forge instanceof GiteaForge)) return null;
  return {
    ...giteaDelivery({ forge: configured.forge, owner: where.owner, repo: where.repo }),
    owner: where.owner,
    repo: where.repo,
  };
}
