import type { Lang } from "../../core/errors/localized-text.js";
import type { RepositoryListing } from "../../index/entry-index.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";

const USAGE = "lore repos [--json]";

/** One repository as `lore repos --json` prints it. */
export interface RepoLine {
  /** The identity: the name its entries are stored under (`recall --repo`, `forget`). */
  repo: string;
  path: string;
  kind: "git" | "folder" | "root";
  /** The commit indexed; `null` for a folder, a root or the working files. */
  commit: string | null;
  entries: number;
  /** Files skipped as *wrong*. */
  skipped: number;
  /** Drafts of the repository in this index, delivered or not. */
  drafts: number;
  /** When it was last indexed, ISO 8601. */
  indexed_at: string;
  /** The folder no longer exists (it is dropped at the next open). */
  missing?: boolean;
}

/** The lines of `lore repos` for people: one block per repository. */
export function formatRepos(repos: readonly RepoLine[], lang: Lang): string[] {
  if (repos.length === 0) {
    return [lang === "ru" ? "проиндексированных репозиториев нет" : "no repository is indexed"];
  }
  const out: string[] = [];
  for (const r of repos) {
    const commit =
      r.commit === null
        ? r.kind === "git"
          ? "none (read from the worktree)"
          : "—"
        : r.commit.slice(0, 12);
    out.push(`${r.path}`);
    out.push(
      lang === "ru"
        ? `  ${r.repo}  ${r.kind}  коммит ${commit}  записей ${r.entries}, пропущено ${r.skipped}, черновиков ${r.drafts}  проиндексирован ${r.indexed_at}`
        : `  ${r.repo}  ${r.kind}  commit ${commit}  ${plural(r.entries, "entry", "entries")}, ${r.skipped} skipped, ${plural(r.drafts, "draft", "drafts")}  indexed ${r.indexed_at}`,
    );
  }
  return out;
}

/** Turns the index's listing into {@link RepoLine}s. */
export function repoLines(listing: readonly RepositoryListing[]): RepoLine[] {
  return listing.map((r) => ({
    repo: r.repo,
    path: r.path,
    kind: r.kind,
    commit: r.commit,
    entries: r.entries,
    skipped: r.skipped,
    drafts: r.drafts,
    indexed_at: new Date(r.indexedAt).toISOString(),
  }));
}

/** `lore repos`: every indexed repository, folder and root (seed 004, "Указатель"). */
export const reposCommand: Command = {
  name: "repos",
  summary: "list the indexed repositories: path, identity, commit, entries, last indexed",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Lists each indexed repository, folder and knowledge root: its folder, its identity (the",
    "normalised origin URL, else commit:<root commit>, else the path; root:<id> for a root),",
    "kind, the commit indexed, entries, skipped files, drafts and when it was last indexed.",
    "",
    "Options:",
    "  --json   print {repos: [{repo, path, kind, commit, entries, skipped, drafts, indexed_at}]}",
    "",
    "Exit codes: 0.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const lore = await ctx.openLore();
    const repos = repoLines(lore.repos());
    if (flag(args, "json")) printJson(ctx.out, { repos });
    else for (const line of formatRepos(repos, ctx.lang)) ctx.out(line);
    return EXIT_CODES.ok;
  },
};
