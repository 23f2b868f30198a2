import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { filePathSchema, rootArgs, rootArgsSchema } from "./root-args.js";

/** `knowledge_write_file` output. */
export const writeFileOutput = {
  root: z.string().describe("Always the primary root."),
  file_path: z.string(),
  mode: z.enum(["create", "replace", "append"]),
  created: z.boolean().describe("True when the file did not exist before."),
  bytes: z.number().int().describe("The file's size after the write."),
};

/**
 * Registers `knowledge_write_file` / `knowledge.write_file` (seed 003: writes go to the
 * primary root only). Any other root is refused with `read_only_root`.
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerWriteFileTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.writeFile,
    {
      title: "Write a file of your notes",
      description:
        "Write a markdown file into your primary knowledge root (your personal notes) — the " +
        "only root that takes writes; `group` and `public` are read-only and refuse with " +
        "`read_only_root`. Use it to save what you learned for later sessions, or to update " +
        "the registry `work/local/knowledge-roots-index-v1.md`. `mode`: `create` (default; " +
        "refused when the file exists), `replace` (the whole file), `append` (add at the end). " +
        `Read the file first with ${names.readFile} before replacing it.`,
      inputSchema: {
        file_path: filePathSchema,
        content: z
          .string(coded("invalid_input", "`content` must be a string"))
          .describe("The markdown text to write (UTF-8, at most 1 MiB)."),
        mode: z
          .enum(
            ["create", "replace", "append"],
            coded("invalid_input", "`mode` must be create, replace or append"),
          )
          .optional()
          .describe("`create` (default), `replace` or `append`."),
        ...rootArgsSchema,
      },
      outputSchema: writeFileOutput,
      annotations: {
        title: "Write a file of your notes",
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args) => {
      try {
        await port.ready;
        const answer = await port.writeFile({
          file_path: args.file_path,
          content: args.content,
          ...(args.mode === undefined ? {} : { mode: args.mode }),
          ...rootArgs(args),
        });
        return jsonResult({ ...answer });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
