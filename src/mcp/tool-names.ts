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
  /** Knowledge roots (issue 3, seed 003). */
  readFile: string;
  writeFile: string;
  routeContext: string;
  status: string;
  /** Federation (issue 4, seeds 000/001): the shared wiki, other projects, tasks. */
  wikiSearch: string;
  wikiGet: string;
  askProjects: string;
  getFrom: string;
  ingest: string;
  suggestPromote: string;
  promote: string;
  createTask: string;
  projectsSync: string;
  projectsStatus: string;
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
    readFile: `knowledge${sep}read_file`,
    writeFile: `knowledge${sep}write_file`,
    routeContext: `knowledge${sep}route_context`,
    status: `knowledge${sep}status`,
    wikiSearch: `knowledge${sep}search`,
    wikiGet: `knowledge${sep}get`,
    askProjects: `knowledge${sep}ask_projects`,
    getFrom: `knowledge${sep}get_from`,
    ingest: `knowledge${sep}ingest`,
    suggestPromote: `knowledge${sep}suggest_promote`,
    promote: `knowledge${sep}promote`,
    createTask: `tasks${sep}create`,
    projectsSync: `projects${sep}sync`,
    projectsStatus: `projects${sep}status`,
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
