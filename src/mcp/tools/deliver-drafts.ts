import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { DraftsPort } from "../knowledge-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { defined, draftPlaceSchema } from "./draft-args.js";

/**
 * Registers `knowledge_deliver` / `knowledge.deliver` (seed 004 "Как знание выходит
 * наружу"): commits the drafts of a branch as files `.gitriver/knowledge/<id>.md`, one
 * commit per 10 MB, into the branch itself (`same`) or into `knowledge/<branch>-<label>`
 * made from the default branch (`separate`, with its own merge request on a team server).
 *
 * The result: `{commits: [sha…], branch, merge_request?, delivered: [id…]}`.
 *
 * @param server - the MCP server.
 * @param drafts - the drafts port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerDeliverDraftsTool(
  server: McpServer,
  drafts: DraftsPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.deliver,
    {
      title: "Deliver knowledge drafts for review",
      description:
        "Put the drafts of a branch up for review: they become files " +
        "`.gitriver/knowledge/<id>.md` in one commit. `mode: same` (usual) commits into the " +
        "branch itself, so the knowledge is reviewed in the same merge request as the code; " +
        "`mode: separate` commits into `knowledge/<branch>-<label>` made from the default " +
        "branch — when the branch is gone or the drafts belong to no code change. Nothing " +
        "reaches the default branch without review; uncommitted work is never touched. A " +
        "delivered draft stays listed until its file is merged.",
      inputSchema: {
        ...draftPlaceSchema,
        mode: z
          .enum(["same", "separate"], coded("invalid_input", "`mode` must be same or separate"))
          .optional()
          .describe("`same` (default) or `separate`."),
        label: z
          .string(coded("invalid_input", "`label` must be a string"))
          .min(1, coded("invalid_input", "`label` must not be empty"))
          .max(100, coded("invalid_input", "`label` must be at most 100 characters"))
          .optional()
          .describe("The separate branch's label. Default: the time, YYYYMMDD-HHMMSS."),
      },
      outputSchema: {
        commits: z.array(z.string()).describe("Oldest first; empty: nothing to deliver."),
        branch: z.string(),
        merge_request: z.number().int().optional(),
        delivered: z.array(z.string()),
      },
      annotations: {
        title: "Deliver knowledge drafts for review",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args) => {
      try {
        const answer = await drafts.deliver({
          mode: args.mode ?? "same",
          ...defined({ repo: args.repo, branch: args.branch, label: args.label }),
        });
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
