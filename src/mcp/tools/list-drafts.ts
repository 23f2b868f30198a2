import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { DRAFTS_PER_PAGE } from "../../core/drafts/draft.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { DraftsPort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { defined, draftOutput, draftPlaceSchema } from "./draft-args.js";

/**
 * Registers `knowledge_drafts` / `knowledge.drafts`: the drafts of a repository (every
 * author's), with their bodies, oldest first; `branch` keeps one branch's.
 *
 * The result: `{items: [draft…], next_cursor}`.
 *
 * @param server - the MCP server.
 * @param drafts - the drafts port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerListDraftsTool(
  server: McpServer,
  drafts: DraftsPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.drafts,
    {
      title: "List knowledge drafts",
      description:
        "List the drafts of a repository — every author's, not only yours — with their " +
        "bodies and, once delivered, the branch and merge request they wait in. Drafts are " +
        "unverified: no review has seen them yet. `branch` keeps the drafts of one branch " +
        `(what ${names.deliver} would commit). Pages of \`per_page\` (default ` +
        `${DRAFTS_PER_PAGE.default}, at most ${DRAFTS_PER_PAGE.max}); pass \`next_cursor\` as \`after\`.`,
      inputSchema: {
        repo: draftPlaceSchema.repo,
        branch: draftPlaceSchema.branch.describe("Only the drafts of this branch. Default: all."),
        per_page: z
          .number(coded("invalid_limit", "`per_page` must be a whole number from 1 to 100"))
          .int(coded("invalid_limit", "`per_page` must be a whole number from 1 to 100"))
          .min(1, coded("invalid_limit", "`per_page` must be from 1 to 100"))
          .max(DRAFTS_PER_PAGE.max, coded("invalid_limit", "`per_page` must be from 1 to 100"))
          .optional(),
        after: z
          .string(coded("invalid_cursor", "`after` must be a `next_cursor` string"))
          .optional(),
      },
      outputSchema: { items: z.array(draftOutput), next_cursor: z.string().nullable() },
      annotations: readOnlyAnnotations("List knowledge drafts"),
    },
    async (args) => {
      try {
        const page = await drafts.list(
          defined({
            repo: args.repo,
            branch: args.branch,
            per_page: args.per_page,
            after: args.after,
          }),
        );
        return jsonResult({ ...page });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
