import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * A successful tool result: the value as structured content, and the same JSON as text for
 * clients that read only `content` (the MCP spec's advice for structured output).
 *
 * @param value - a JSON-serialisable object.
 */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
    structuredContent: value,
  };
}
