import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type CallToolResult,
  CallToolResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Lang, LocalizedText } from "../core/errors/localized-text.js";
import { ERROR_CODES, type ErrorCode, LoreError } from "../core/errors/lore-error.js";
import { nearestKey } from "../core/text/nearest-key.js";
import { toolError } from "./tool-error.js";
import type { ToolNames } from "./tool-names.js";

/** A zod object schema, as the SDK keeps a tool's input schema. */
type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * Makes every registered tool's input strict and answers every `tools/call` refusal in the
 * documented shape (README "MCP client set-up"): a tool result with `isError: true` whose
 * text is `{"error": {"code", "message", "next"}}`.
 *
 * - Each input schema becomes a strict object: the listed JSON Schema says
 *   `additionalProperties: false` (as seed 001's `ask_projects` schema does), and an unknown
 *   argument is refused with `invalid_input` naming it and the nearest known argument
 *   (`unknown argument “projcts”, the nearest known is “projects”`), as the entry parser
 *   names unknown keys, instead of being dropped silently (a typo `limt: 3` would give the
 *   default 5).
 * - A value the schema refuses (`limit: 0`) is refused with the machine code its schema
 *   message carries (`coded()`: `invalid_limit`), not the SDK's plain `MCP error -32602`
 *   text; the message is in the server's language.
 * - An unknown tool name is refused `invalid_input`, naming the nearest tool; a known tool
 *   that is not listed (a federation tool without its configuration) gets `unlisted`'s
 *   refusal (`federation_disabled`) instead.
 * - A structured answer that breaks the tool's output schema is `internal` (a fault here).
 *
 * It replaces the SDK's `tools/call` handler (the SDK validates before a handler runs and
 * only has a plain message for a refusal); the tool list stays the SDK's. Call it once,
 * after every tool is registered.
 *
 * @param server - the MCP server, its tools registered.
 * @param tools - every registered tool, by exposed name.
 * @param names - the exposed tool names (for the `next` hints).
 * @param lang - the language of messages.
 * @param unlisted - the refusal for a tool name that exists but is not listed, if any.
 */
export function installStrictToolCalls(
  server: McpServer,
  tools: ReadonlyMap<string, RegisteredTool>,
  names: ToolNames,
  lang: Lang,
  unlisted: (name: string) => LoreError | undefined = () => undefined,
): void {
  for (const tool of tools.values()) {
    const shape = (tool.inputSchema as ObjectSchema | undefined)?.shape ?? {};
    tool.inputSchema = z.strictObject(shape);
  }
  server.server.removeRequestHandler("tools/call");
  // Registered on the protocol layer: the SDK `Server`'s own registration of `tools/call`
  // first validates the request against its schema (`arguments: null` → a bare -32602
  // before any handler runs). The result is still checked against `CallToolResultSchema`,
  // as the SDK would. (Lore's tools take no task augmentation.)
  const register = Protocol.prototype.setRequestHandler as unknown as (
    this: McpServer["server"],
    schema: typeof LOOSE_CALL_REQUEST,
    handler: (
      request: z.infer<typeof LOOSE_CALL_REQUEST>,
      extra: HandlerExtra,
    ) => Promise<CallToolResult>,
  ) => void;
  register.call(server.server, LOOSE_CALL_REQUEST, async (request, extra) =>
    CallToolResultSchema.parse(await answer(request, extra)),
  );
  async function answer(
    request: z.infer<typeof LOOSE_CALL_REQUEST>,
    extra: HandlerExtra,
  ): Promise<CallToolResult> {
    const refused = (error: LoreError) => toolError(error, names, lang);
    const tool = tools.get(request.params.name);
    if (tool === undefined || !tool.enabled) {
      const name = request.params.name;
      return refused(unlisted(name) ?? unknownTool(name, [...tools.keys()]));
    }
    const schema = tool.inputSchema as ObjectSchema;
    const given: unknown = request.params.arguments;
    if (
      given !== undefined &&
      (given === null || typeof given !== "object" || Array.isArray(given))
    ) {
      return refused(
        new LoreError("invalid_input", {
          reason: `\`arguments\` must be an object of the tool's arguments (or left out), not ${given === null ? "null" : Array.isArray(given) ? "an array" : typeof given}`,
          reason_ru: `\`arguments\` — объект с аргументами инструмента (или поле опущено), а не ${given === null ? "null" : Array.isArray(given) ? "массив" : typeof given}`,
        }),
      );
    }
    const args = (given ?? {}) as Record<string, unknown>;
    const parsed = await schema.safeParseAsync(args);
    if (!parsed.success) {
      return refused(argumentError(parsed.error, Object.keys(schema.shape), args));
    }
    const result = await callHandler(tool, parsed.data, extra);
    return checkOutput(tool, result, refused);
  }
}

/**
 * `tools/call` as the SDK reads it, but with `arguments` of any JSON value: the SDK's own
 * schema refuses `arguments: null` before a handler runs, with a bare internal error
 * (-32603); here the handler refuses it as `invalid_input` in the documented shape.
 */
const LOOSE_CALL_REQUEST = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }),
});

/** The SDK's `extra` argument of a tool handler. */
type HandlerExtra = Parameters<Parameters<McpServer["server"]["setRequestHandler"]>[1]>[1];

async function callHandler(
  tool: RegisteredTool,
  args: unknown,
  extra: HandlerExtra,
): Promise<CallToolResult> {
  // Every Lore tool is registered with an input schema, so the SDK's handler convention
  // is `(args, extra)`; the SDK's type is a union over schemas, hence the cast.
  const handler = tool.handler as (args: unknown, extra: HandlerExtra) => Promise<CallToolResult>;
  return handler(args, extra);
}

function checkOutput(
  tool: RegisteredTool,
  result: CallToolResult,
  refused: (error: LoreError) => CallToolResult,
): CallToolResult {
  const output = tool.outputSchema as ObjectSchema | undefined;
  if (output === undefined || result.isError === true) return result;
  const checked = output.safeParse(result.structuredContent);
  if (checked.success) return result;
  return refused(
    new LoreError("internal", {
      reason: `the answer does not match the tool's output schema: ${checked.error.issues[0]?.message ?? ""}`,
    }),
  );
}

function unknownTool(name: string, known: readonly string[]): LoreError {
  const nearest = nearestKey(name, known);
  return new LoreError(
    "invalid_input",
    {
      reason: `there is no tool “${name}”${nearest ? `; the nearest is “${nearest}”` : ""}`,
      reason_ru: `инструмента „${name}“ нет${nearest ? `; ближайший — „${nearest}“` : ""}`,
    },
    { data: nearest ? { tool: name, nearest } : { tool: name } },
  );
}

/**
 * Turns a refused tool input into a LoreError: an unknown argument, if any, before any
 * other issue (`invalid_input` with its nearest known argument), else the first value
 * refused by its schema,
 * with the code and English text of its `coded()` message and a Russian text made from
 * the issue.
 *
 * @param error - zod's refusal.
 * @param known - the tool's argument names, in declaration order.
 * @param args - the arguments as given (to tell a missing argument from a wrong one).
 */
export function argumentError(
  error: z.ZodError,
  known: readonly string[],
  args: Record<string, unknown>,
): LoreError {
  // An unknown argument comes first: a typo `projcts` would otherwise read as a missing
  // `projects`, hiding the real mistake.
  const issue = error.issues.find((i) => i.code === "unrecognized_keys") ?? error.issues[0];
  if (issue === undefined) {
    return new LoreError("invalid_input", { reason: "the arguments are refused" });
  }
  if (issue.code === "unrecognized_keys") return unknownArgument(issue.keys[0] ?? "", known);
  const path = argumentPath(issue.path);
  const coded = /^\[([a-z_]+)\] ([\s\S]*)$/.exec(issue.message);
  const code = coded && coded[1] !== undefined && coded[1] in ERROR_CODES ? coded[1] : undefined;
  const en = coded?.[2] ?? `\`${path}\`: ${issue.message}`;
  const text: LocalizedText = { en, ru: russianReason(issue, path, valueAt(args, issue.path)) };
  const data = { argument: path };
  if (code === undefined || code === "invalid_input") {
    return new LoreError("invalid_input", { reason: text.en, reason_ru: text.ru }, { data });
  }
  return new LoreError(code as ErrorCode, {}, { data, text });
}

function unknownArgument(key: string, known: readonly string[]): LoreError {
  const nearest = nearestKey(key, known);
  const list = known.length > 0 ? known.join(", ") : "none";
  return new LoreError(
    "invalid_input",
    nearest
      ? {
          reason: `unknown argument “${key}”, the nearest known is “${nearest}”`,
          reason_ru: `аргумент „${key}“ не известен, ближайший известный — „${nearest}“`,
        }
      : {
          reason: `unknown argument “${key}”, and no known one is near it (known: ${list})`,
          reason_ru: `аргумент „${key}“ не известен, похожих нет (известные: ${known.length > 0 ? list : "нет"})`,
        },
    { data: nearest ? { argument: key, nearest } : { argument: key } },
  );
}

/** `projects[0]`, `query`: an argument's path as people write it. */
function argumentPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) =>
      typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    "",
  );
}

const RUSSIAN_TYPES: Record<string, string> = {
  string: "строкой",
  number: "числом",
  int: "целым числом",
  boolean: "true или false",
  array: "списком",
  object: "объектом",
};

/** The value at a path of the arguments, or undefined. */
function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let value = args;
  for (const part of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

/** A Russian reason for a refused value, from the zod issue (the English one is `coded()`'s). */
function russianReason(issue: z.core.$ZodIssue, path: string, value: unknown): string {
  const name = `„${path}“`;
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `нужен аргумент ${name}`;
      return `${name} должен быть ${RUSSIAN_TYPES[issue.expected] ?? issue.expected}`;
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1
          ? `${name} не должен быть пустым`
          : `${name} короче ${issue.minimum} символов`;
      }
      if (issue.origin === "array") return `в ${name} нужно не меньше ${issue.minimum} элементов`;
      return `${name} должен быть не меньше ${issue.minimum}`;
    case "too_big":
      if (issue.origin === "string") return `${name} длиннее ${issue.maximum} символов`;
      if (issue.origin === "array") return `в ${name} можно не больше ${issue.maximum} элементов`;
      return `${name} должен быть не больше ${issue.maximum}`;
    case "invalid_value":
      return `${name} должен быть одним из: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return `${name} записан в неверном формате`;
    default:
      return `${name} отклонён: ${issue.message.replace(/^\[[a-z_]+\] /, "")}`;
  }
}
