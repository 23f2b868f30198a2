import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { projectNameArg } from "./wiki-args.js";

/** `tasks_create` output (services/federation/create-task.ts `CreatedTask`). */
export const createTaskOutput = {
  project: z.string(),
  slug: z.string(),
  path: z.string(),
  status: z.literal("todo"),
  commit: z.string(),
};

/**
 * Registers `tasks_create` / `tasks.create` (seed 000: how a project is asked to write
 * knowledge down): a task file and a STATUS.md row, through the forge.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerCreateTaskTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.createTask,
    {
      title: "Give a project a task",
      description:
        "Add a task to another project's .tasks/: a task file holding `body` and a `todo` " +
        "row in its STATUS.md, committed through the forge. Use it when " +
        `${names.askProjects} found no knowledge: e.g. body "Write down the knowledge about X ` +
        "in .wiki/concepts/x.md\". The first line of the body is the task's title. The " +
        `project sees it at its next ${names.projectsSync}.`,
      inputSchema: {
        target_project: projectNameArg("target_project", "The repository that should do the task."),
        body: z
          .string(coded("invalid_input", "`body` must be a string"))
          .min(1, coded("invalid_input", "`body` must not be empty"))
          .max(65536, coded("invalid_input", "`body` is at most 64 KB"))
          .describe("What to do, markdown; the first line is the title."),
      },
      outputSchema: createTaskOutput,
      annotations: {
        title: "Give a project a task",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    async (args) => {
      try {
        const task = await port.createTask(
          { target_project: args.target_project, body: args.body },
          names.createTask,
        );
        return jsonResult({ ...task });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
