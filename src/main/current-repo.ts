/**
 * The hosted repository of the clone in a folder (`lore mr` without `--repo`): its `origin`
 * remote, when that points at the configured team server.
 */
import { runGit } from "../adapters/git-cli/run-git.js";
import { repoOfRemote } from "../core/merge-requests/origin-repo.js";

/**
 * The `owner/name` of the folder's `origin` remote on the team server, or `undefined` (no
 * git repository, no origin, or one elsewhere).
 *
 * @param cwd - the folder.
 * @param server - `[server] url`.
 */
export async function currentHostedRepo(cwd: string, server: string): Promise<string | undefined> {
  try {
    const out = await runGit({ cwd, args: ["remote", "get-url", "origin"], timeoutMs: 10_000 });
    return repoOfRemote(out.stdout.toString("utf8"), server);
  } catch {
    return undefined;
  }
}
