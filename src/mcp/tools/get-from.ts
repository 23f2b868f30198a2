import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { FederationPort } from "../federation-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { projectNameArg, wikiSlugArg } from "./wiki-args.js";

/**
 * Registers `knowledge_get_from` / `knowledge.get_from` (seed 000 "Tools", seed 001
 * Task 4): one page of one project, `<project>/.wiki/<slug>.md`, read live. The result's
 * text is the raw markdown file (seed 000 "Output: raw markdown body").
 *
 * @param server - the MCP server.
 * @param port - the federation port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerGetFromTool(
  server: McpServer,
  port: FederationPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  return server.registerTool(
    names.getFrom,
    {
      title: "Read a page of another project's wiki",
      description:
        "The full text of one page of a given project — `<project>/.wiki/<slug>.md`, read " +
        'live. The slug includes the type prefix (e.g. "concepts/foo"). Use it after ' +
        `${names.askProjects} to read a match whole. If the knowledge is missing, ask the ` +
        `project to write it down with ${names.createTask}.`,
      inputSchema: {
        project: projectNameArg("project", `Repository name, as ${names.askProjects} returned it.`),
        slug: wikiSlugArg("Path under .wiki/ without .md, with the type prefix: concepts/foo."),
      },
      annotations: {
        title: "Read a page of another project's wiki",
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      },
    },
    async ({ project, slug }) => {
      try {
        const page = await port.getFrom(project, slug, names.getFrom);
        return { content: [{ type: "text", text: page.body }] };
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}
