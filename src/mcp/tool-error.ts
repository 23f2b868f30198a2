import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { clientData } from "../core/errors/client-data.js";
import type { Lang } from "../core/errors/localized-text.js";
import {
  type ErrorCode,
  fromSqliteError,
  isLoreError,
  LoreError,
} from "../core/errors/lore-error.js";
import type { ToolNames } from "./tool-names.js";

/**
 * What an agent should do next after each refusal, by code. Written for a model: one
 * sentence, naming the tool or argument to use.
 */
function nextStep(code: ErrorCode, names: ToolNames): string {
  switch (code) {
    case "entry_not_found":
      return `The id is unknown (the entry may have been deleted); call ${names.recall} to find current ids.`;
    case "ambiguous_id":
      return `Call ${names.open} again with \`repo\` set to one of the repositories the message lists (the hit's \`repo\` in ${names.recall}).`;
    case "invalid_cursor":
      return "Repeat the same call without `cursor` to start from the first page.";
    case "empty_query":
      return "Pass `query` with at least one word, or `tool` with the name of the tool you are about to call.";
    case "invalid_limit":
      return "Pass `limit` as a whole number in the range the message gives, or leave it out.";
    case "invalid_input":
    case "invalid_entry":
      return "Fix the arguments as the message says and call again.";
    case "license_required":
      return `This report needs a paid edition (the message names it); call ${names.stats} with \`kind: "me"\`, or tell the user.`;
    case "federation_disabled":
      return "Tell the user which setting the message names; the other Lore tools keep working.";
    case "project_unknown":
      return `Call ${names.projectsSync} (or check the name with ${names.projectsStatus}), then ask again.`;
    case "page_not_found":
      return `Take a slug from ${names.askProjects} or ${names.wikiSearch}; if nobody has the page, ask a project to write it with ${names.createTask}.`;
    case "invalid_slug":
      return "Pass the slug as `type/name` (e.g. `concepts/foo`), relative, without `..`.";
    case "path_not_found":
      return `No file at that \`file_path\` (or it is a folder); see what the roots hold with ${names.routeContext} or ${names.status}, or ask the user.`;
    case "fetch_failed":
    case "forge_unavailable":
      return "The forge did not answer; try again later, or go on without this page.";
    case "git_failed":
    case "index_failed":
    case "internal":
    case "config_invalid":
    case "not_a_repository":
      return "This is a fault on the Lore server, not in your arguments; tell the user and go on without this knowledge.";
    default:
      return "Tell the user what the message says.";
  }
}

/**
 * Maps anything a tool handler throws to an MCP tool error result (`isError: true`), once
 * for every tool (STYLE.md habit 4). The text is JSON an agent can act on:
 * `{"error": {"code", "message", "next", "data"?}}` with the stable machine code, the
 * message in the server's language and the next step naming the exposed tool names.
 * No `structuredContent`: clients validate it against the tool's output schema.
 *
 * @param error - what the handler threw; non-LoreErrors become `internal`.
 * @param names - the exposed tool names.
 * @param lang - the message language.
 */
export function toolError(error: unknown, names: ToolNames, lang: Lang): CallToolResult {
  const lore =
    fromSqliteError(error) ??
    (isLoreError(error)
      ? error
      : new LoreError(
          "internal",
          { reason: error instanceof Error ? error.message : String(error) },
          { cause: error },
        ));
  const body: Record<string, unknown> = {
    code: lore.code,
    message: lore.text[lang],
    next: nextStep(lore.code, names),
  };
  // A fault of the server keeps its details (git's arguments …) for the log.
  const data = clientData(lore);
  if (data !== undefined) body.data = data;
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: body }) }] };
}
