import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { filePathSchema, rootArgs, rootArgsSchema } from "./root-args.js";

/** `knowledge_read_file` output: the text and the root it came from. */
export const readFileOutput = {
  root: z.string().describe("The root the text came from: `primary`, `group`, …"),
  kind: z.enum(["primary", "named", "read_only"]),
  file_path: z.string().describe("The path relative to `knowledge/`, cleaned."),
  text: z
    .string()
    .nullable()
    .describe("The file's text; null when it is not in primary and `lives_in` says where it is."),
  bytes: z.number().int(),
  lives_in: z
    .object({
      root: z.string(),
      registry_line: z.number().int(),
      entry: z.string().describe("The registry line as written."),
    })
    .optional()
    .describe("Set when the registry says the file lives in another root: read it there."),
};

/**
 * Registers `knowledge_read_file` / `knowledge.read_file` (seed 003): a file of
 * any root by `knowledge_root_id` or `knowledge_path`, primary by default.
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerReadFileTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.readFile,
    {
      title: "Read a knowledge file",
      description:
        "Read one markdown file from a knowledge root: your primary notes by default, or the " +
        "team's `group` / the `public` root with `knowledge_root_id`. Use it when " +
        `${names.routeContext} or the registry line \`foo.md => group\` points at a file, or a ` +
        `${names.recall} hit has a \`root\`: pass its \`path\` and \`root\`. When you name no ` +
        "root and the registry says the file lives elsewhere, the answer's `lives_in` names " +
        "the root to read it from.",
      inputSchema: { file_path: filePathSchema, ...rootArgsSchema },
      outputSchema: readFileOutput,
      annotations: readOnlyAnnotations("Read a knowledge file"),
    },
    async (args) => {
      try {
        await port.ready;
        const answer = await port.readFile({ file_path: args.file_path, ...rootArgs(args) });
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
