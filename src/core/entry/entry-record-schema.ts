/**
 * The fields of an entry's index record as every answer carries them (seed 004
 * "Интерфейс": the index's record — contract, reachability, unmet mechanisms, path,
 * origin, summary — and seed 004's drafts marked unverified): one zod shape for the MCP
 * tool `knowledge_open`'s output and the REST listing `GET …/knowledge`'s items in the
 * OpenAPI document, so the two cannot drift apart. Pure: schemas, no I/O.
 */
import { z } from "zod";

/**
 * One contract clause as written (`ContractClause`: `mechanism` and its `params`, nothing
 * else). Strict, so both JSON Schema generators (the MCP SDK's and the OpenAPI document's)
 * say `additionalProperties: false` alike.
 */
export const contractClauseSchema = z
  .object({
    mechanism: z.string(),
    params: z.record(z.string(), z.unknown()),
  })
  .strict();

/**
 * The record fields shared by `knowledge_open` and the REST listing item: id, path,
 * origin, summary, contract, links, reachable, unmet_mechanisms, and `draft`/`branch` of a
 * draft. Each answer adds its own (`repo` and `body` for open, `blob_sha` for the listing).
 */
export const entryRecordShape = {
  id: z.string(),
  path: z.string(),
  origin: z.enum(["human", "agent"]),
  summary: z.string(),
  contract: z.array(contractClauseSchema),
  links: z.array(z.string()).describe("Ids of related entries; open them when they matter."),
  reachable: z.boolean(),
  unmet_mechanisms: z.array(z.string()),
  draft: z
    .literal(true)
    .optional()
    .describe("A draft: written by an agent, not yet reviewed (unverified)."),
  branch: z.string().optional().describe("The branch a draft was written on."),
};

/** The names of {@link entryRecordShape}'s fields. */
export const ENTRY_RECORD_FIELDS = Object.keys(
  entryRecordShape,
) as (keyof typeof entryRecordShape)[];
