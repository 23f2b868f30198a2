import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { LIMITS } from "../../core/entry/entry.js";
import type { Lang } from "../../core/errors/localized-text.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { DraftFields, DraftsPort } from "../knowledge-port.js";
import { toolError } from "../tool-error.js";
import type { ToolNames } from "../tool-names.js";
import { jsonResult } from "../tool-result.js";
import { coded } from "./coded-error.js";
import { defined, draftOutput, draftPlaceSchema } from "./draft-args.js";

/**
 * Registers `knowledge_draft` / `knowledge.draft` (seed 004 "Как знание выходит наружу"):
 * writes a draft — an entry visible at once to everyone who reads the repository, marked
 * unverified, that reaches the repository only as a file of a reviewed commit.
 *
 * The result: the draft `{id, branch, author, created_at, size, delivered?, text, repo?}`.
 *
 * @param server - the MCP server.
 * @param drafts - the drafts port.
 * @param names - the exposed tool names.
 * @param lang - the language of error messages.
 */
export function registerWriteDraftTool(
  server: McpServer,
  drafts: DraftsPort,
  names: ToolNames,
  lang: Lang,
): RegisteredTool {
  const words = z
    .array(z.string(coded("invalid_input", "each word must be a string")))
    .max(64, coded("invalid_input", "at most 64 `words`"));
  return server.registerTool(
    names.draft,
    {
      title: "Write a knowledge draft",
      description:
        "Save what you learned for the team as a draft entry: a lesson learned, a fix that " +
        "took long, a trap you found, a rule the code does not show. Write it when it would " +
        "have saved you time had you known it at the start. The draft is visible at once to " +
        `everyone who reads the repository (${names.recall} lists it marked \`draft: true\`, ` +
        "unverified) and reaches the repository only through review: " +
        `${names.deliver} commits drafts as files into the branch's merge request. Pass ` +
        "`title` (one line: the summary) and `body` (why, what to do, when it does not " +
        "apply), with `words` (on_query words) or `tool` (an on_tool name) that should bring " +
        "it back; or the whole entry file as `text` (strict: an unknown key is refused with " +
        `the nearest known one; lint it with ${names.check}). The id is assigned; at most ` +
        "64 KB as a file.",
      inputSchema: {
        ...draftPlaceSchema,
        text: z
          .string(coded("invalid_input", "`text` must be the entry file as a string"))
          .max(
            LIMITS.fileBytes * 2,
            coded("invalid_input", `\`text\` must be at most ${LIMITS.fileBytes} bytes`),
          )
          .optional()
          .describe("The whole entry file (frontmatter and body); instead of title/body."),
        title: z
          .string(coded("invalid_input", "`title` must be a string"))
          .optional()
          .describe("One line: what to know, e.g. `Run sqlx migrations as the schema owner`."),
        body: z
          .string(coded("invalid_input", "`body` must be a string"))
          .optional()
          .describe("Why, what to do, when it does not apply (markdown)."),
        words: words.optional().describe("Words of a question that should recall it."),
        tool: z
          .string(coded("invalid_input", "`tool` must be a string"))
          .optional()
          .describe("A tool name whose call should recall it (on_tool)."),
        links: z
          .array(z.string(coded("invalid_input", "each link must be an entry id")))
          .optional()
          .describe("Ids of related entries."),
      },
      outputSchema: draftOutput.shape,
      annotations: {
        title: "Write a knowledge draft",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args) => {
      try {
        const draft = fieldsOf(args);
        const view = await drafts.write({
          ...defined({ repo: args.repo, branch: args.branch }),
          draft,
        });
        return jsonResult({ ...view });
      } catch (error) {
        return toolError(error, names, lang);
      }
    },
  );
}

/** The draft's content from the arguments. @throws LoreError `invalid_input`. */
function fieldsOf(args: {
  text?: string | undefined;
  title?: string | undefined;
  body?: string | undefined;
  words?: string[] | undefined;
  tool?: string | undefined;
  links?: string[] | undefined;
}): DraftFields {
  const fields = args.title !== undefined || args.body !== undefined;
  const extras = args.words !== undefined || args.tool !== undefined || args.links !== undefined;
  if (args.text !== undefined && !fields && !extras) return { text: args.text };
  if (args.text === undefined && args.title !== undefined && args.body !== undefined) {
    return {
      title: args.title,
      body: args.body,
      ...defined({ words: args.words, tool: args.tool, links: args.links }),
    };
  }
  throw new LoreError("invalid_input", {
    reason:
      "pass either `text` (the whole entry file) or `title` and `body` (with `words`, `tool`, `links`), not both",
    reason_ru:
      "передайте либо `text` (весь файл записи), либо `title` и `body` (с `words`, `tool`, `links`), но не оба",
  });
}
