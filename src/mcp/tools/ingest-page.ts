import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import { WIKI_PAGE_TYPES } from "../../core/wiki/wiki-index.js";
import { INGEST_MAX_BODY_BYTES, type IngestInput } from "../../services/wiki/ingest-page.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";

/** `knowledge_ingest` output (services/wiki/ingest-page.ts `IngestResult`). */
export const ingestOutput = {
  slug: z.string(),
  project: z
    .string()
    .nullable()
    .describe("The repository written through the forge; null = this project."),
  wiki: z.string(),
  file: z.string(),
  created: z.boolean(),
  index_updated: z.boolean(),
};

/**
 * Registers `knowledge_ingest` / `knowledge.ingest`: a page into the
 * current project's `.wiki/`, or into `target_project`'s through the forge; index.md by the
 * canonical writer, a line in log.md.
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerIngestTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.ingest,
    {
      title: "Write a wiki page",
      description:
        "Write down knowledge as a page of this project's wiki (.wiki/), or of another " +
        "project's wiki with `target_project` (committed through the forge). The page is " +
        "listed in index.md and the write is logged in log.md; the same slug again replaces " +
        `the page. Use it when you learned something another session will need; to ask ` +
        `another project to write it instead, use ${names.createTask}.`,
      inputSchema: {
        title: z
          .string(coded("invalid_input", "`title` must be a string"))
          .min(1, coded("invalid_input", "`title` must not be empty"))
          .max(300, coded("invalid_input", "`title` is at most 300 characters"))
          .describe("The page's title."),
        type: z
          .enum(
            WIKI_PAGE_TYPES,
            coded("invalid_input", `\`type\` must be one of ${WIKI_PAGE_TYPES.join(", ")}`),
          )
          .describe(
            "entities (things), concepts (ideas, how-tos), packages, sources, raw (dumps).",
          ),
        body: z
          .string(coded("invalid_input", "`body` must be a string"))
          .min(1, coded("invalid_input", "`body` must not be empty"))
          .max(INGEST_MAX_BODY_BYTES, coded("invalid_input", "`body` is at most 64 KB"))
          .describe("The markdown body, without frontmatter."),
        slug: z
          .string(coded("invalid_input", "`slug` must be a string"))
          .max(512, coded("invalid_input", "`slug` is at most 512 characters"))
          .optional()
          .describe("Name under the type folder (e.g. yarn-on-windows). Default: from the title."),
        target_project: z
          .string(coded("invalid_input", "`target_project` must be a repository name"))
          .min(1, coded("invalid_input", "`target_project` must not be empty"))
          .max(200, coded("invalid_input", "`target_project` is at most 200 characters"))
          .optional()
          .describe(
            "Write into this repository's .wiki/ through the forge instead of this project.",
          ),
      },
      outputSchema: ingestOutput,
      annotations: {
        title: "Write a wiki page",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async (args, extra) => {
      try {
        const input: IngestInput = { title: args.title, type: args.type, body: args.body };
        if (args.slug !== undefined) input.slug = args.slug;
        if (args.target_project !== undefined) input.target_project = args.target_project;
        return jsonResult({ ...(await port.ingest(input, names.ingest, extra.signal)) });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
