/**
 * How tool names are spelled: `underscore` (`knowledge_recall`, the default: several major
 * clients refuse a whole tool list when a name does not match `^[a-zA-Z0-9_-]{1,64}$`) or
 * `dotted` (`knowledge.recall`, the seeds' spelling, `--tool-names=dotted`). Issue 2 §5.
 */
export type ToolNameStyle = "underscore" | "dotted";

/** The exposed name of each Lore tool; descriptions and hints refer to tools through it. */
export interface ToolNames {
  recall: string;
  open: string;
  check: string;
}

/**
 * The exposed tool names for a style.
 *
 * @param style - `underscore` (default) or `dotted`.
 */
export function toolNames(style: ToolNameStyle = "underscore"): ToolNames {
  const sep = style === "dotted" ? "." : "_";
  return {
    recall: `knowledge${sep}recall`,
    open: `knowledge${sep}open`,
    check: `knowledge${sep}check`,
  };
}

/**
 * Reads a `--tool-names` value.
 *
 * @param value - `dotted`, `underscore`, or undefined (default `underscore`).
 * @returns the style, or undefined when the value is not one of them.
 */
export function parseToolNameStyle(value: string | undefined): ToolNameStyle | undefined {
  if (value === undefined || value === "underscore") return "underscore";
  if (value === "dotted") return "dotted";
  return undefined;
}
