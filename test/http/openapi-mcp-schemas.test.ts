import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENTRY_RECORD_FIELDS } from "../../src/core/entry/entry-record-schema.js";
import { IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

/**
 * One source for the entry record's schema (seed 004 "Интерфейс"): the REST listing's
 * OpenAPI component `KnowledgeItem` (`GET /api/v1/openapi.json`) and the `outputSchema`
 * the MCP tool `knowledge_open` advertises (`tools/list` over `/mcp`) come from the same
 * zod shape, so each shared field's JSON Schema is the same in both, and a real listing
 * item and a real open answer agree on those fields.
 */
type JsonSchema = {
  properties?: Record<string, unknown>;
  required?: string[];
  $schema?: string;
  additionalProperties?: unknown;
};

/**
 * A schema with the two spellings the generators differ in made one, both meaning the same
 * in JSON Schema: zod's generator (the MCP SDK's) writes `propertyNames: {type: "string"}`
 * for a record, which the OpenAPI generator leaves out (JSON object keys are always
 * strings), and `const: x` where the OpenAPI generator writes `enum: [x]`.
 */
function normalized(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalized);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "propertyNames" && JSON.stringify(value) === JSON.stringify({ type: "string" })) {
      continue;
    }
    if (key === "const") out.enum = [value];
    else out[key] = normalized(value);
  }
  return out;
}

let team: TeamFixture;
let component: JsonSchema;
let openSchema: JsonSchema;
let client: Client;

beforeAll(async () => {
  team = await startTeamFixture();
  const doc = (await (
    await fetch(`${team.base}/api/v1/openapi.json`, {
      headers: { authorization: `Bearer ${team.tokens.anna}` },
    })
  ).json()) as {
    components: { schemas: Record<string, JsonSchema> };
  };
  component = doc.components.schemas.KnowledgeItem as JsonSchema;
  client = new Client({ name: "openapi-mcp", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${team.base}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${team.tokens.anna}` } },
    }),
  );
  const tools = await client.listTools();
  openSchema = tools.tools.find((tool) => tool.name === "knowledge_open")
    ?.outputSchema as JsonSchema;
});
afterAll(async () => {
  await client?.close();
  await team?.close();
});

describe("the REST listing item and the MCP open output: one schema", () => {
  it("every shared field has the same JSON Schema in the OpenAPI component and the MCP tool", () => {
    expect(component).toBeDefined();
    expect(openSchema).toBeDefined();
    for (const field of ENTRY_RECORD_FIELDS) {
      expect(normalized(component.properties?.[field]), `KnowledgeItem.${field}`).toEqual(
        normalized(openSchema.properties?.[field]),
      );
      expect(component.required?.includes(field), `required ${field}`).toBe(
        openSchema.required?.includes(field),
      );
    }
    // The listing adds the blob's sha and the last parse's diagnostics, never the body; open
    // adds repo and body.
    expect(Object.keys(component.properties ?? {}).sort()).toEqual(
      [...ENTRY_RECORD_FIELDS, "blob_sha", "diagnostics"].sort(),
    );
    expect(openSchema.properties?.body).toBeDefined();
  });

  it("a real listing item and a real open answer agree on the shared fields, each valid against both schemas", async () => {
    const listed = (await (
      await fetch(`${team.base}/api/v1/repos/acme/public/knowledge`, {
        headers: { authorization: `Bearer ${team.tokens.anna}` },
      })
    ).json()) as { items: Record<string, unknown>[] };
    const item = listed.items.find((entry) => entry.id === IDS["acme/public"]);
    expect(item).toBeDefined();
    const opened = await client.callTool({
      name: "knowledge_open",
      arguments: { id: IDS["acme/public"] },
    });
    const open = opened.structuredContent as Record<string, unknown>;
    const shared = (answer: Record<string, unknown>) =>
      Object.fromEntries(ENTRY_RECORD_FIELDS.filter((f) => f in answer).map((f) => [f, answer[f]]));
    expect(shared(item ?? {})).toEqual(shared(open));
    const ajv = new Ajv2020({ strict: false });
    const { $schema: _draft, ...mcp } = openSchema;
    const onlyShared = (schema: JsonSchema) => ({
      type: "object",
      properties: Object.fromEntries(
        ENTRY_RECORD_FIELDS.map((f) => [f, schema.properties?.[f] ?? {}]),
      ),
      required: (schema.required ?? []).filter((f) =>
        (ENTRY_RECORD_FIELDS as string[]).includes(f),
      ),
    });
    for (const schema of [onlyShared(component), onlyShared(mcp)]) {
      const validate = ajv.compile(schema);
      expect(validate(shared(item ?? {})), JSON.stringify(validate.errors)).toBe(true);
      expect(validate(shared(open)), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});
