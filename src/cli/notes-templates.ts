/**
 * The files `lore init --notes` writes into a new primary root (seed 003, "Шаблоны в
 * каноне" and «work/local/README описывает реестр»), written for Lore. Paths are relative
 * to the root folder. The texts that tell an agent which tool to call name the tools as
 * the MCP server exposes them (`--tool-names`, `[mcp] tool_names`): with the `seed` style
 * the hot section says `route_context` and `read_knowledge_file`, as seed 003's does.
 */
import { TEMPLATE_MARK } from "../core/roots/lore-templates.js";
import type { ToolNames } from "../mcp/tool-names.js";

/** The tool names the notes mention. */
export type NotesToolNames = Pick<ToolNames, "routeContext" | "readFile" | "writeFile" | "status">;

/** The example registry. */
export const REGISTRY_EXAMPLE_PATH = "knowledge/work/local/knowledge-roots-index-v1.example.md";
/** The example hot section, beside the example registry (the seed lists both as templates of `work/local`). */
export const HOT_SECTION_EXAMPLE_PATH =
  "knowledge/work/local/hot-section-knowledge-roots-routing-v1.example.md";
/** The README of `work/local`, describing the registry (a template: not indexed as a note). */
export const WORK_LOCAL_README_PATH = "knowledge/work/local/README.md";

/**
 * The routing section of the hot file (`agent-notes.md`).
 *
 * @param names - the exposed tool names.
 */
export function routingSection(names: NotesToolNames): string {
  return `## knowledge-roots-routing-v1

Knowledge lives in several roots. This (primary) root is mine and the only one I write to;
\`group\` (the team's knowledge base) and \`public\` are read-only clones named in lore.toml
(\`[[knowledge.read_only]]\`).

- Before answering from memory about a team topic, call \`${names.routeContext}\` with the task:
  it adds the registry lines that match and a preview of each file from its root.
- The registry \`knowledge/work/local/knowledge-roots-index-v1.md\` says where the text of a file
  lives: a line \`foo.md => group\` means read it with
  \`${names.readFile}(file_path="foo.md", knowledge_root_id="group")\`.
- Never copy a group playbook into this root; write new notes here with \`${names.writeFile}\`.
  Writes to \`group\` or \`public\` are refused (\`read_only_root\`).
- \`${names.status}\` lists the roots and whether their folders exist.
`;
}

/** The example registry's text. */
export const REGISTRY_EXAMPLE = `# Knowledge roots registry (example)
#
# Copy to knowledge-roots-index-v1.md (same folder) and edit. One entry per line:
#   <path relative to knowledge/> => <root id>
# A trailing "/" makes a folder prefix; the longest matching entry wins, and a prefix
# matches whole path segments only (team/ matches team/x.md, never teamwork/x.md).
# "user" (or no "=> ...") means this primary root. "#" starts a comment.
# Keep only pointers here, never copies of the text.

group/smoke-test-v1.md => group
group/ => group
public/ => public
group/personal-copy.md => user
`;

/**
 * The example hot section's text.
 *
 * @param names - the exposed tool names.
 */
export function hotSectionExample(names: NotesToolNames): string {
  return `# Example hot section: knowledge-roots-routing-v1

Paste the section below into agent-notes.md at the root of your primary knowledge root
(lore init --notes already did). Lore's ${names.routeContext} adds it to the answer whenever a
question is about group/public/roots/chmod/the registry or matches a registry line.

${routingSection(names)}`;
}

/**
 * The README of \`work/local\`; its first line is the template mark, so the roots indexer
 * skips it (examples end \`.example.md\` and are skipped by name).
 *
 * @param names - the exposed tool names.
 */
export function workLocalReadme(names: NotesToolNames): string {
  return `${TEMPLATE_MARK}
# work/local — machine-local routing files

This folder holds files about *this* machine's knowledge roots.

## knowledge-roots-index-v1.md — the roots registry

Says which root holds the text of a file, one entry per line:

\`\`\`
relative/path/under/knowledge.md => group
folder/prefix/ => public
moved-to-me.md => user
\`\`\`

- Paths are relative to \`knowledge/\` of the root. A trailing \`/\` makes a folder prefix;
  the longest matching entry wins; prefixes match whole path segments only.
- The second part is a root id from lore.toml (\`[knowledge.roots]\` or
  \`[[knowledge.read_only]]\`, any case). \`user\`, \`primary\` or no second part mean this
  primary root — after importing a file here, change its line to \`user\` or remove it.
- \`#\` starts a comment; blank lines are ignored; a malformed line is reported with its
  line number by \`lore doctor\` and \`${names.status}\`, and skipped.
- Disk paths of the clones are not here: they live in lore.toml
  (\`[[knowledge.read_only]] id = "group"  path = '/path/to/group-kb'\`).

Agents use it through \`${names.routeContext}\` (matching lines and a preview from the
read-only root) and \`${names.readFile}(file_path, knowledge_root_id)\`.
Start from \`knowledge-roots-index-v1.example.md\`.
`;
}

/**
 * The hot file of a new primary root.
 *
 * @param names - the exposed tool names.
 */
export function agentNotes(names: NotesToolNames): string {
  return `# agent-notes

Always-loaded notes for coding agents. Split into sections by headings;
${names.routeContext} returns the sections relevant to a task.

${routingSection(names)}`;
}
