import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore tasks create --project NAME (--body TEXT | --body-file F) [--json]";

/**
 * `lore tasks create` (the seed's `tasks.create`): a task file and a
 * STATUS.md row in a project, through the forge.
 */
export const tasksCommand: Command = {
  name: "tasks",
  summary: "give a project a task (tasks.create)",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Commits .tasks/<slug>.md holding the body and a `todo` row in .tasks/STATUS.md of the",
    "project, through the forge. The slug comes from the body's first line. The project",
    "sees it at the next `lore sync`.",
    "",
    "Options:",
    "  --project NAME   the repository",
    "  --body TEXT      the task (markdown; the first line is its title)",
    "  --body-file F    read the task from a file",
    "  --json           print what was made as JSON",
    "",
    "Exit codes: 0 created, 2 bad arguments, 3 no such repository, 6 no forge configured.",
  ].join("\n"),
  options: {
    project: { type: "string" },
    body: { type: "string" },
    "body-file": { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const usage = () =>
      new LoreError("invalid_input", {
        reason: `usage: ${USAGE}`,
        reason_ru: `использование: ${USAGE}`,
      });
    if (args.positionals.length !== 1 || args.positionals[0] !== "create") throw usage();
    const project = stringOption(args, "project");
    const text = stringOption(args, "body");
    const file = stringOption(args, "body-file");
    if (project === undefined || (text === undefined) === (file === undefined)) throw usage();
    let body = text ?? "";
    if (file !== undefined) {
      try {
        body = await readFile(resolve(ctx.cwd, file), "utf8");
      } catch {
        throw new LoreError("path_not_found", { path: resolve(ctx.cwd, file) });
      }
    }
    const lore = await ctx.openLore();
    const task = await lore
      .federation()
      .createTask({ target_project: project, body }, "lore tasks create");
    if (flag(args, "json")) printJson(ctx.out, task);
    else ctx.out(`lore: task ${task.slug} added to ${task.project} (${task.path})`);
    return EXIT_CODES.ok;
  },
};
