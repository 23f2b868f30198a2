import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { LIMITS } from "../../core/entry/entry.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { checkOutput } from "./output-schemas.js";

/**
 * Registers the check tool (`knowledge_check` / `knowledge.check`): lints a text as an entry
 * file with the strict parse. Writes nothing.
 *
 * The result: `{ok, entry?: {id, summary, reachable, unmet_mechanisms}, diagnostics: [{code,
 * severity, line?, column?, at?, message}]}`; `ok` is false when the strict parse refuses the
 * text.
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of diagnostic messages.
 */
export function registerCheckTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.check,
    {
      title: "Check a knowledge entry",
      description:
        "Lint a knowledge entry before you propose it or commit it: pass the whole file text — " +
        "YAML frontmatter between `---` lines (`id` a UUIDv7, `contract`, `origin`, `links`, " +
        "`summary`), then the markdown body — as `text`. Strict: an unknown key is refused with " +
        "the nearest known key. Returns `ok` and the diagnostics with machine codes, lines and " +
        "messages; fix every `error` and check again. Writes nothing.",
      inputSchema: {
        text: z
          .string(coded("invalid_input", "`text` must be the entry file as a string"))
          .max(
            LIMITS.fileBytes * 2,
            coded("invalid_input", `\`text\` must be at most ${LIMITS.fileBytes} bytes`),
          )
          .describe("The whole entry file: `---`, YAML frontmatter, `---`, markdown body."),
        path: z
          .string(coded("invalid_input", "`path` must be a string"))
          .max(1000, coded("invalid_input", "`path` must be at most 1000 characters"))
          .optional()
          .describe(
            "Where the file would live, e.g. `.gitriver/knowledge/deploy-rollback.md`; used in messages.",
          ),
      },
      outputSchema: checkOutput,
      annotations: readOnlyAnnotations("Check a knowledge entry"),
    },
    async ({ text, path }) => {
      try {
        const result = await port.check(text, path);
        const diagnostics = result.diagnostics.map((d) => {
          const item: Record<string, unknown> = { code: d.code, severity: d.severity };
          if (d.line !== undefined) item.line = d.line;
          if (d.column !== undefined) item.column = d.column;
          if (d.at !== undefined) item.at = d.at;
          item.message = d.message[lang];
          return item;
        });
        const answer: Record<string, unknown> = { ok: result.value !== undefined, diagnostics };
        if (result.value) {
          answer.entry = {
            id: result.value.entry.id,
            summary: result.value.summary,
            reachable: result.value.reachable,
            unmet_mechanisms: result.value.unmetMechanisms,
          };
        }
        return jsonResult(answer);
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
