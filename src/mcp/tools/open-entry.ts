import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Lang } from "../../core/errors/localized-text.js";
import type { EntryView } from "../../services/knowledge/get-entry.js";
import type { KnowledgePort } from "../knowledge-port.js";
import { readOnlyAnnotations } from "../tool-annotations.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { openOutput } from "./output-schemas.js";

/**
 * What an agent needs of an entry: its fields and body; not the file text (it repeats the
 * body), nor the parse report (for people, `lore check`). Unknown keys only when present.
 */
function trimEntry(entry: EntryView): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: entry.id,
    repo: entry.repo,
    path: entry.path,
    origin: entry.origin,
    summary: entry.summary,
    contract: entry.contract,
    links: entry.links,
    reachable: entry.reachable,
    unmet_mechanisms: entry.unmet_mechanisms,
  };
  if (Object.keys(entry.unknown_keys).length > 0) out.unknown_keys = entry.unknown_keys;
  out.body = entry.body;
  if (entry.draft === true) {
    out.draft = true;
    if (entry.branch !== undefined) out.branch = entry.branch;
  }
  return out;
}

/**
 * Registers the open tool (`knowledge_open` / `knowledge.open`): one entry whole, body
 * included, by id — within one repository when `repo` is given (ids may repeat across
 * repositories); counts a read (`get(id)`).
 *
 * @param server - the MCP server.
 * @param port - Lore's knowledge port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerOpenTool(
  server: McpServer,
  port: KnowledgePort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.open,
    {
      title: "Open a knowledge entry",
      description:
        `Read one knowledge entry whole — its fields and markdown body — by an id from ${names.recall}. ` +
        "Call it when a summary looks relevant to what you are doing, before you act on it: the " +
        "body holds the reasons, what to try and when it does not work. Opening counts as a " +
        "read, which tells the team the entry is useful.",
      inputSchema: {
        id: z
          .string(coded("invalid_input", "`id` must be an entry id string"))
          .min(1, coded("invalid_input", "`id` must not be empty"))
          .max(100, coded("invalid_input", "`id` is too long for an entry id"))
          .describe(`The entry id (a UUIDv7) as ${names.recall} listed it.`),
        repo: z
          .string(coded("invalid_input", "`repo` must be a repository name string"))
          .max(300, coded("invalid_input", "`repo` is too long for a repository name"))
          .optional()
          .describe(
            `The repository the entry is in, as the hit's \`repo\` in ${names.recall} (e.g. owner/name). Give it when two repositories hold the same id (ambiguous_id); leave it out otherwise.`,
          ),
      },
      outputSchema: openOutput,
      annotations: readOnlyAnnotations("Open a knowledge entry"),
    },
    async ({ id, repo }, extra) => {
      try {
        // Sees a moved HEAD first; a cancelled request cancels that refresh.
        await (port.fresh === undefined ? port.ready : port.fresh(extra.signal));
        const within = repo?.trim();
        const entry = await port.open(
          id.trim(),
          within === undefined || within === "" ? {} : { repo: within },
        );
        return jsonResult(trimEntry(entry));
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
