/**
 * How tool names are spelled (`--tool-names`, `[mcp] tool_names`):
 * - `underscore` (`knowledge_recall`, the default: several major clients refuse a whole
 *   tool list when a name does not match `^[a-zA-Z0-9_-]{1,64}$`);
 * - `dotted` (`knowledge.recall`, `knowledge.read_file` …: every tool in the seeds' dotted
 *   spelling);
 * - `seed` (every tool a seed names under exactly that name: seed 003's
 *   `read_knowledge_file` and `route_context`, seeds 000/001's `knowledge.search`,
 *   `knowledge.get`, `knowledge.ask_projects`, `knowledge.get_from`, `knowledge.ingest`,
 *   `knowledge.suggest_promote`, `knowledge.promote`, `tasks.create`; the tools no seed
 *   names keep their dotted names), so that agents and hot sections written for the seed
 *   systems call tools that exist.
 */
export type ToolNameStyle = "underscore" | "dotted" | "seed";

/** The styles, in the order help texts list them. */
export const TOOL_NAME_STYLES: readonly ToolNameStyle[] = ["underscore", "dotted", "seed"];

/** The exposed name of each Lore tool; descriptions and hints refer to tools through it. */
export interface ToolNames {
  recall: string;
  open: string;
  check: string;
  /** Knowledge roots (seed 003). */
  readFile: string;
  writeFile: string;
  routeContext: string;
  status: string;
  /** Drafts (seed 004): write, list, discard, deliver. */
  draft: string;
  drafts: string;
  discard: string;
  deliver: string;
  /** Shown/read counters and the dead-memory report (seed 004 "Интерфейс"). */
  stats: string;
  /** Load receipts: what recall surfaced and why (README "Load receipts"). */
  receipts: string;
  /** Federation (seeds 000/001): the shared wiki, other projects, tasks. */
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
 * @param style - `underscore` (default), `dotted` or `seed`.
 */
export function toolNames(style: ToolNameStyle = "underscore"): ToolNames {
  if (style === "seed") {
    // Seed 003 names its tools read_knowledge_file and route_context; the rest as dotted.
    return {
      ...toolNames("dotted"),
      readFile: "read_knowledge_file",
      routeContext: "route_context",
    };
  }
  const sep = style === "dotted" ? "." : "_";
  return {
    recall: `knowledge${sep}recall`,
    open: `knowledge${sep}open`,
    check: `knowledge${sep}check`,
    readFile: `knowledge${sep}read_file`,
    writeFile: `knowledge${sep}write_file`,
    routeContext: `knowledge${sep}route_context`,
    status: `knowledge${sep}status`,
    draft: `knowledge${sep}draft`,
    drafts: `knowledge${sep}drafts`,
    discard: `knowledge${sep}discard`,
    deliver: `knowledge${sep}deliver`,
    stats: `knowledge${sep}stats`,
    receipts: `knowledge${sep}receipts`,
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
 * @param value - `underscore`, `dotted`, `seed`, or undefined (default `underscore`).
 * @returns the style, or undefined when the value is not one of them.
 */
export function parseToolNameStyle(value: string | undefined): ToolNameStyle | undefined {
  if (value === undefined) return "underscore";
  return TOOL_NAME_STYLES.find((style) => style === value);
}
