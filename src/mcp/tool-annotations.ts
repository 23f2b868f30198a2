import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";

/**
 * The annotations of a tool that only reads Lore's own data: no side effects, the same
 * answer for the same arguments, no outside world.
 *
 * @param title - the tool's human-readable title.
 */
export function readOnlyAnnotations(title: string): ToolAnnotations {
  return {
    title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
}
