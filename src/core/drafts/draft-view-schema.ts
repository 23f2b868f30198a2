/**
 * The shape of a draft in every answer (seed 004 "Интерфейс": `{id, branch, author,
 * created_at, size, delivered?, text}`), one zod schema for the MCP draft tools' output and
 * the REST API's OpenAPI document, so the two cannot drift apart. Pure: a schema, no I/O.
 */
import { z } from "zod";

/** A draft as the MCP tools and the REST API answer it ({@link DraftView}'s schema). */
export const draftViewSchema = z.object({
  id: z.string().describe("The entry id (UUIDv7), kept when the draft becomes a file."),
  branch: z.string().describe("The branch the author works on."),
  author: z.string(),
  created_at: z.string().describe("ISO 8601 UTC."),
  size: z.number().int().describe("Bytes of the future file."),
  delivered: z
    .object({
      branch: z.string(),
      commit: z.string(),
      at: z.string(),
      merge_request: z.number().int().optional(),
    })
    .optional()
    .describe("Where it waits for review; absent: not delivered yet."),
  text: z.string().describe("The whole future file `.gitriver/knowledge/<id>.md`."),
  repo: z.string().optional().describe("The repository, in answers over several."),
});
