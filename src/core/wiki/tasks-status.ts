import type { LocalizedText } from "../errors/localized-text.js";
import { LoreError } from "../errors/lore-error.js";

/**
 * `.tasks/STATUS.md` — a project's task board, one markdown table (federation, “Sync and the
 * cache”; the seed's `parseStatus` / `ActiveTask`). Format:
 *
 * ```md
 * # Tasks
 *
 * | slug | status | next |
 * | --- | --- | --- |
 * | fix-login | in_progress | write the failing test |
 * | docs | done | — |
 * ```
 *
 * - The first table whose header has `slug` and `status` columns (any case, any order)
 *   is the board; `next` is optional, other columns (e.g. `title`, `owner`) are ignored.
 * - `slug` names the task (its file is `.tasks/<slug>.md`); `status` is one of
 *   {@link TASK_STATUSES} (any case; spaces and `-` read as `_`, so `In progress` works);
 *   `next` is the next step, free text (`\|` for a pipe).
 * - Active = every status but `done` (an unknown status counts as active and is reported).
 * - Rows with an empty slug are skipped and reported; leading/trailing pipes are optional.
 */
export const TASK_STATUSES = ["todo", "in_progress", "blocked", "review", "done"] as const;

/** One known task status. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One task row of STATUS.md (the seed's `ParsedStatus['tasks'][number]`). */
export interface StatusTask {
  /** The task's slug (file `.tasks/<slug>.md`). */
  slug: string;
  /** The status, normalised (lowercase, `_`); an unknown one is kept as normalised. */
  status: string;
  /** The next step; `""` when the column is absent or empty. */
  next: string;
}

/** A task that is not `done` — the seed's `ActiveTask` (`{ slug, status, next }`). */
export type ActiveTask = StatusTask;

/** A STATUS.md line the parser did not read as written, a value (never thrown). */
export interface StatusProblem {
  /** `unknown_status` (kept, counted active), `empty_slug` (row skipped), `no_table` (no board found). */
  code: "unknown_status" | "empty_slug" | "no_table";
  /** 1-based line (0 for `no_table`). */
  line: number;
  /** The reason in English and Russian. */
  message: LocalizedText;
}

/** What {@link parseStatusMd} gives back. */
export interface ParsedStatus {
  /** Every task row in file order. */
  tasks: StatusTask[];
  /** What could not be read as written. */
  problems: StatusProblem[];
}

/** The cache's view of a board (seed 001, `ProjectStatus.active_tasks` / `all_tasks_count`). */
export interface StatusSummary {
  /** Tasks whose status is not `done`, in file order. */
  active_tasks: ActiveTask[];
  /** Number of task rows (any status). */
  all_tasks_count: number;
}

/** Splits a table row into trimmed cells; `\|` stays a pipe inside a cell. */
function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\" && body[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (body[i] === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += body[i];
  }
  cells.push(cell.trim());
  return cells;
}

const isTableLine = (line: string) => line.trim().startsWith("|") || line.includes("|");
const isSeparator = (line: string) =>
  /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(line);

/** Normalises a status cell: lowercase, spaces and `-` → `_`, backticks dropped. */
export function normalizeTaskStatus(status: string): string {
  return status
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

/**
 * Parses `.tasks/STATUS.md` leniently (format: see {@link TASK_STATUSES}). Pure, never throws.
 *
 * @param md - the file's text (LF or CRLF).
 * @returns every task row and the problems found.
 */
export function parseStatusMd(md: string): ParsedStatus {
  const tasks: StatusTask[] = [];
  const problems: StatusProblem[] = [];
  const lines = (typeof md === "string" ? md : "").split(/\r?\n/);
  for (let h = 0; h + 1 < lines.length; h++) {
    const header = lines[h] as string;
    if (!isTableLine(header) || !isSeparator(lines[h + 1] as string)) continue;
    const names = splitRow(header).map((name) => name.replace(/[`*]/g, "").toLowerCase());
    const slugAt = names.indexOf("slug");
    const statusAt = names.indexOf("status");
    if (slugAt < 0 || statusAt < 0) continue;
    const nextAt = names.indexOf("next");
    for (let i = h + 2; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.trim() === "" || !line.includes("|")) break;
      const cells = splitRow(line);
      const slug = (cells[slugAt] ?? "").replace(/`/g, "").trim();
      if (slug === "") {
        problems.push({
          code: "empty_slug",
          line: i + 1,
          message: {
            en: "a task row without a slug; skipped",
            ru: "строка задачи без slug; пропущена",
          },
        });
        continue;
      }
      const status = normalizeTaskStatus(cells[statusAt] ?? "");
      if (!(TASK_STATUSES as readonly string[]).includes(status)) {
        problems.push({
          code: "unknown_status",
          line: i + 1,
          message: {
            en: `status “${status}” is not one of ${TASK_STATUSES.join(", ")}; counted as active`,
            ru: `статус «${status}» не из списка ${TASK_STATUSES.join(", ")}; считается активным`,
          },
        });
      }
      tasks.push({ slug, status, next: nextAt < 0 ? "" : (cells[nextAt] ?? "") });
    }
    return { tasks, problems };
  }
  problems.push({
    code: "no_table",
    line: 0,
    message: {
      en: "no table with “slug” and “status” columns",
      ru: "нет таблицы со столбцами «slug» и «status»",
    },
  });
  return { tasks, problems };
}

/**
 * The cache's summary of a board: active tasks (status not `done`) and the row count.
 *
 * @param parsed - from {@link parseStatusMd}.
 * @returns `{ active_tasks, all_tasks_count }`.
 */
export function summarizeStatus(parsed: ParsedStatus): StatusSummary {
  return {
    active_tasks: parsed.tasks
      .filter((task) => task.status !== "done")
      .map((task) => ({ slug: task.slug, status: task.status, next: task.next })),
    all_tasks_count: parsed.tasks.length,
  };
}

/** A fresh STATUS.md: a `# Tasks` heading and the empty `slug | status | next` table. */
export function freshStatusMd(): string {
  return "# Tasks\n\n| slug | status | next |\n| --- | --- | --- |\n";
}

const cell = (text: string) => text.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");

/**
 * Appends one task row to STATUS.md (at the end of the board table; a fresh file when
 * `md` is empty; a new table at the end when the file has none). Columns are filled by
 * the table's own header; unknown columns stay empty.
 *
 * @param md - the current STATUS.md text (may be empty).
 * @param task - `{ slug, status, next }`; `status` one of {@link TASK_STATUSES}.
 * @returns the new text.
 * @throws LoreError `invalid_input` when the slug is empty, holds `|` or a line break,
 *   the status is unknown, or the slug is already on the board.
 */
export function appendStatusRow(
  md: string,
  task: { slug: string; status: TaskStatus; next: string },
): string {
  const slug = task.slug.trim();
  if (slug === "" || /[|\r\n]/.test(slug))
    throw new LoreError("invalid_input", {
      reason: `task slug “${slug}” is empty or holds | or a line break`,
    });
  if (!(TASK_STATUSES as readonly string[]).includes(task.status))
    throw new LoreError("invalid_input", {
      reason: `task status “${task.status}” is not one of ${TASK_STATUSES.join(", ")}`,
    });
  const parsed = parseStatusMd(md);
  if (parsed.tasks.some((t) => t.slug === slug))
    throw new LoreError("invalid_input", { reason: `task “${slug}” is already in STATUS.md` });
  let source = md.trim() === "" ? freshStatusMd() : md;
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  if (parsed.problems.some((p) => p.code === "no_table") && md.trim() !== "")
    source = `${source.replace(/\s*$/, "")}${eol}${eol}| slug | status | next |${eol}| --- | --- | --- |${eol}`;
  const lines = source.split(/\r?\n/);
  const header = lines.findIndex((line, h) => {
    if (!isTableLine(line) || !isSeparator(lines[h + 1] ?? "")) return false;
    const names = splitRow(line).map((n) => n.replace(/[`*]/g, "").toLowerCase());
    return names.includes("slug") && names.includes("status");
  });
  const names = splitRow(lines[header] as string).map((n) => n.replace(/[`*]/g, "").toLowerCase());
  let end = header + 2;
  while (
    end < lines.length &&
    (lines[end] as string).trim() !== "" &&
    (lines[end] as string).includes("|")
  )
    end++;
  const values: Record<string, string> = { slug, status: task.status, next: cell(task.next) };
  lines.splice(end, 0, `| ${names.map((n) => values[n] ?? "").join(" | ")} |`);
  const text = lines.join(eol);
  return text.endsWith(eol) ? text : `${text}${eol}`;
}
