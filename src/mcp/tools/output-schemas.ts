import { z } from "zod";
import { entryRecordShape } from "../../core/entry/entry-record-schema.js";
import type { ToolNames } from "../tool-names.js";

/**
 * Output schemas of the tools (MCP `outputSchema`): what `structuredContent` holds, so a
 * client can rely on the shape and a change to it is a reviewed diff of the snapshots.
 */

const why = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("on_query"), word: z.string() }),
  z.object({ kind: z.literal("on_tool"), name: z.string() }),
  z.object({ kind: z.literal("text") }),
]);

/**
 * `knowledge_recall`: a page of hits (services/knowledge/hit-page.ts `HitPage`).
 *
 * @param names - the exposed tool names the field descriptions mention.
 */
export const recallOutput = (names: Pick<ToolNames, "open" | "readFile">) => ({
  hits: z
    .array(
      z.object({
        id: z.string().describe(`Entry id; pass it to ${names.open}.`),
        kind: z
          .enum(["entry", "note", "wiki"])
          .describe(
            "An entry of a repository, a note of a knowledge root, or a page of this project's wiki.",
          ),
        source: z
          .string()
          .describe(
            "Where it comes from: the repository of an entry, the root id of a note, the page's path of a wiki page (`.wiki/concepts/x.md`).",
          ),
        repo: z.string(),
        path: z.string(),
        root: z
          .string()
          .optional()
          .describe(
            `The knowledge root of a note (\`group\`, \`primary\`, …); read it with ${names.readFile}.`,
          ),
        summary: z.string().describe("The entry's first thought, at most 512 bytes."),
        origin: z.enum(["human", "agent"]),
        why: z.array(why).describe("Why it matched: an on_query word, the on_tool name, or text."),
        score: z
          .number()
          .describe(
            "One scale for every hit, higher first: query words matched (by contract or text, +1 for the tool) + 0.5 when the contract fired + text relevance below 0.5.",
          ),
        draft: z
          .literal(true)
          .optional()
          .describe(
            "A draft: written by an agent, not yet reviewed (unverified); it reaches the repository only through review.",
          ),
        branch: z.string().optional().describe("The branch a draft was written on."),
      }),
    )
    .describe(
      "Entries, root notes and wiki pages in one order: more query words matched first, then a firing contract above an equal text match; never bodies.",
    ),
  total: z.number().int().describe("How many entries match in all."),
  total_exact: z.boolean().describe("False when `total` is a lower bound (a very broad query)."),
  next_cursor: z
    .string()
    .nullable()
    .describe("Pass as `cursor` for the next page; null on the last."),
});

/**
 * `knowledge_open`: the entry's fields and body. The record fields are
 * `core/entry/entry-record-schema.ts`'s, shared with the REST listing's OpenAPI schema.
 */
export const openOutput = {
  id: entryRecordShape.id,
  repo: z.string(),
  path: entryRecordShape.path,
  origin: entryRecordShape.origin,
  summary: entryRecordShape.summary,
  contract: entryRecordShape.contract,
  links: entryRecordShape.links,
  reachable: entryRecordShape.reachable,
  unmet_mechanisms: entryRecordShape.unmet_mechanisms,
  unknown_keys: z.record(z.string(), z.unknown()).optional(),
  body: z.string().describe("The markdown body: reasons, what to try, when it does not work."),
  draft: entryRecordShape.draft,
  branch: entryRecordShape.branch,
};

/** `knowledge_check`: the strict lint report. */
export const checkOutput = {
  ok: z.boolean().describe("True when the strict parse accepts the text."),
  diagnostics: z.array(
    z.object({
      code: z.string().describe("Stable machine code, e.g. `unknown_key`."),
      severity: z.enum(["error", "warning", "info"]),
      line: z.number().int().optional(),
      column: z.number().int().optional(),
      at: z.string().optional().describe("Where in the frontmatter, e.g. `contract[0].params`."),
      message: z.string(),
    }),
  ),
  entry: z
    .object({
      id: z.string(),
      summary: z.string(),
      reachable: z.boolean(),
      unmet_mechanisms: z.array(z.string()),
    })
    .optional(),
};
