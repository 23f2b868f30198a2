import { isLoreError, LoreError } from "../../core/errors/lore-error.js";
import { slugify } from "../../core/roots/hot-sections.js";
import { appendStatusRow, parseStatusMd } from "../../core/wiki/tasks-status.js";
import type { Backend } from "../../ports/forge.js";
import { refuseSecrets } from "../safety/scan-secrets.js";
import { TASKS_STATUS_PATH } from "./sync.js";

/** Longest task slug, characters (before a `-2` … suffix). */
const SLUG_CHARS = 60;
/** Longest `next` cell written to STATUS.md, characters. */
const NEXT_CHARS = 120;
/** Tries at the STATUS.md compare-and-swap when another writer got in between. */
const STATUS_ATTEMPTS = 5;

/** The input of {@link createTask} (the seed's `tasks.create({target_project, body})`). */
export interface CreateTaskInput {
  /** Repository to put the task in. */
  target_project: string;
  /** What to do, markdown; its first non-empty line is the title. At most 64 KB (edge check). */
  body: string;
}

/** What {@link createTask} made. */
export interface CreatedTask {
  project: string;
  /** The task's slug: its STATUS.md row and its file `.tasks/<slug>.md`. */
  slug: string;
  /** `.tasks/<slug>.md`. */
  path: string;
  /** Always `todo`. */
  status: "todo";
  /** The commit that added the STATUS.md row (40 hex). */
  commit: string;
}

/** What {@link createTask} needs. */
export interface CreateTaskDeps {
  forge: Backend;
  /** Owner passed to the forge (the Gitea user; ignored by the local forge). */
  owner: string;
  /** Commit message prefix naming who asked. Default: `lore`. */
  author?: string;
}

/** The first non-empty line of the body without markdown heading marks. */
function titleOf(body: string): string {
  const line = body.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return line.replace(/^#+\s*/, "").trim();
}

/**
 * Adds a task to a project's `.tasks/` through the forge (federation, “Tools”: `tasks.create`
 * — "a task file and a STATUS.md row"; seed 000: how a project is asked to write knowledge
 * down). Two commits on the default branch: `.tasks/<slug>.md` holding the body (created,
 * never overwritten: a taken slug gets `-2`, `-3` …), then a `| slug | todo | <title> |`
 * row appended to `.tasks/STATUS.md` (created with the board's header when missing) with
 * the file's sha as compare-and-swap, re-read and retried when another writer got in
 * between. The slug is the title (first non-empty line) in lower case, letters and digits
 * joined by `-`, at most 60 characters (`task` when none is left).
 *
 * @param deps - see {@link CreateTaskDeps}.
 * @param input - see {@link CreateTaskInput}.
 * @returns what was made.
 * @throws LoreError `invalid_input` (empty body or project), `secret_detected` (`data:
 *   {line, rule}`, a line of the body: the secret guard scans it before any commit),
 *   `forge_not_found`,
 *   `forge_conflict` (STATUS.md kept changing), `forge_unauthorized`, `forge_unavailable`,
 *   `forge_failed`, `git_failed`.
 */
export async function createTask(
  deps: CreateTaskDeps,
  input: CreateTaskInput,
): Promise<CreatedTask> {
  const project = input.target_project.trim();
  const body = input.body.trim();
  if (project === "" || body === "") {
    throw new LoreError("invalid_input", {
      reason: "target_project and body must not be empty",
      reason_ru: "target_project и body не должны быть пустыми",
    });
  }
  await refuseSecrets(body);
  const { forge, owner } = deps;
  const title = titleOf(body);
  const base = slugify(title).slice(0, SLUG_CHARS).replace(/-+$/, "") || "task";
  const board = await forge.getRawFile(owner, project, TASKS_STATUS_PATH);
  const taken = new Set(parseStatusMd(board ?? "").tasks.map((t) => t.slug));
  const who = deps.author ?? "lore";
  let slug = base;
  for (let n = 2; ; n++) {
    if (!taken.has(slug)) {
      try {
        await forge.commitFile({
          owner,
          repo: project,
          path: `.tasks/${slug}.md`,
          content: `${body}\n`,
          message: `${who}: task ${slug}`,
        });
        break;
      } catch (error) {
        // The file exists (a task without a row): take the next name.
        if (!(isLoreError(error) && error.code === "forge_conflict")) throw error;
      }
    }
    slug = `${base}-${n}`;
  }
  const next = title.length > NEXT_CHARS ? `${title.slice(0, NEXT_CHARS - 1)}…` : title;
  for (let attempt = 1; ; attempt++) {
    const current = await forge.getFileWithSha(owner, project, TASKS_STATUS_PATH);
    const text = appendStatusRow(current?.content ?? "", { slug, status: "todo", next });
    try {
      const made = await forge.commitFile({
        owner,
        repo: project,
        path: TASKS_STATUS_PATH,
        content: text,
        message: `${who}: STATUS.md += ${slug}`,
        ...(current === null ? {} : { sha: current.sha }),
      });
      return { project, slug, path: `.tasks/${slug}.md`, status: "todo", commit: made.commit };
    } catch (error) {
      const raced = isLoreError(error) && error.code === "forge_conflict";
      if (!raced || attempt >= STATUS_ATTEMPTS) throw error;
    }
  }
}
