import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { LoreError } from "../core/errors/lore-error.js";

/**
 * Most bytes of UTF-8 JSON text in one tool answer (README "Limits"): 2 MiB. Every page
 * read from elsewhere is capped at 1 MiB, so an answer this large means a bug or hostile
 * input; a client drops the session on answers of many megabytes.
 */
export const MCP_ANSWER_BUDGET_BYTES = 2 * 1024 * 1024;

/**
 * A successful tool result: the value as structured content, and the same JSON as text for
 * clients that read only `content` (the MCP spec's advice for structured output).
 *
 * @param value - a JSON-serialisable object.
 * @throws LoreError `answer_too_large` when the JSON text is over
 *   {@link MCP_ANSWER_BUDGET_BYTES} (the tool's error handler answers it as an error).
 */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  const text = JSON.stringify(value, null, 2);
  const size = Buffer.byteLength(text, "utf8");
  if (size > MCP_ANSWER_BUDGET_BYTES)
    throw new LoreError("answer_too_large", {
      size,
      limit: MCP_ANSWER_BUDGET_BYTES,
      hint: "ask for fewer results (a smaller `limit`, fewer projects)",
      hint_ru: "запросите меньше результатов (меньший `limit`, меньше проектов)",
    });
  return { content: [{ type: "text", text }], structuredContent: value };
}
