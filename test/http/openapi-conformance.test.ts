/**
 * The OpenAPI document against the real server (seed 004 "Интерфейс"; the "The API as
 * a product": «checked in tests against real responses of every endpoint»): for EVERY
 * operation of `GET /api/v1/openapi.json`, real calls over HTTP on 127.0.0.1 — successes and
 * refusals — whose answers are validated with ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1) against the document's schema of that operation and status. The test fails
 * when a documented operation was not called, when a status it answered is not documented,
 * when an answer's media type differs from the documented one, or when a body does not
 * match its schema; a successful call's request body is checked against the documented
 * request schema too.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { SCOPES } from "../../src/core/access/rights.js";
import { PAID_FEATURES } from "../../src/core/editions/edition.js";
import { bareRepoPath } from "../../src/services/access/hosted-repos.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { IDS, startTeamFixture, type TeamFixture } from "./team-fixture.js";

/** The parts of an OpenAPI 3.1 document the check reads. */
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, unknown>;
}
interface MediaTypes {
  [type: string]: { schema?: object };
}
interface Operation {
  requestBody?: { content: MediaTypes };
  responses: Record<string, { content?: MediaTypes; headers?: Record<string, unknown> }>;
}

/** One real call of the check. */
interface Call {
  /** What the call shows, for the failure message. */
  label: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The concrete path, e.g. `/api/v1/repos/acme/public/knowledge`. */
  path: string;
  /** Whose token (a secret), or none for a 401. */
  token?: string;
  body?: unknown;
  /** A body sent as is (a malformed one), instead of `body` as JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The status the call must answer. */
  status: number;
  /** Which server: the main one (default) or the Community one. */
  server?: "main" | "community";
}

/** What a call answered, with the operation it was matched to. */
interface Answered {
  call: Call;
  operation: string;
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
}

const PRIVATE = "acme/private";
const UNKNOWN_ID = "0193ffff-0000-7000-8000-0000000000ff";
const ENTRY_OF_PRIVATE = IDS["acme/private"];
const WRITE_DRAFT = {
  branch: "main",
  title: "Run sqlx migrations as the schema owner",
  body: "A migration applied as a superuser creates objects the next one cannot alter.",
  words: ["sqlx", "migration"],
};

let main: TeamFixture;
let community: TeamFixture;
let doc: OpenApiDoc;
let work: string;
/** Token secrets of every scope: anna, boris (write on acme/private), root (a site admin). */
const full = { anna: "", boris: "", root: "" };
const answered: Answered[] = [];

/** Pushes a new branch of acme/private with one file (for opening a merge request). */
async function pushBranch(branch: string): Promise<void> {
  const env = {
    GIT_AUTHOR_NAME: "T",
    GIT_AUTHOR_EMAIL: "t@example.invalid",
    GIT_COMMITTER_NAME: "T",
    GIT_COMMITTER_EMAIL: "t@example.invalid",
  };
  const git = (args: string[], values: string[] = []) => runGit({ cwd: work, args, values, env });
  await git(["fetch", "-q", "origin"]);
  await git(["checkout", "-q", "-B"], [branch, "origin/main"]);
  const file = join(work, "notes", `${branch.replaceAll("/", "-")}.txt`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `notes of ${branch}\n`);
  await git(["add", "-A"]);
  await git(["commit", "-q", "-m", `on ${branch}`]);
  await git(["push", "-q", "origin"], [`HEAD:refs/heads/${branch}`]);
}

/** The documented operation (`METHOD /template`) a concrete call goes to; the most literal match wins. */
function operationOf(method: string, path: string): string | undefined {
  let best: { key: string; literal: number } | undefined;
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (operations[method.toLowerCase()] === undefined) continue;
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) =>
        part === "{path}"
          ? ".+"
          : part.startsWith("{")
            ? "[^/]+"
            : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"),
      )
      .join("");
    if (!new RegExp(`^${pattern}$`).test(path)) continue;
    const literal = template.replace(/\{[^}]+\}/g, "").length;
    if (best === undefined || literal > best.literal) {
      best = { key: `${method} ${template}`, literal };
    }
  }
  return best?.key;
}

/** Makes one call over HTTP and records what it answered. */
async function run(call: Call): Promise<Answered> {
  const fixture = call.server === "community" ? community : main;
  const headers: Record<string, string> = { ...(call.headers ?? {}) };
  if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
  if (call.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${fixture.base}${call.path}`, {
    method: call.method,
    headers,
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    ...(call.rawBody === undefined ? {} : { body: call.rawBody }),
  });
  const text = await response.text();
  const operation = operationOf(call.method, new URL(call.path, "http://x").pathname);
  const result: Answered = {
    call,
    operation: operation ?? `${call.method} ${call.path} (undocumented)`,
    status: response.status,
    contentType: (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "",
    text,
    headers: response.headers,
  };
  answered.push(result);
  expect(response.status, `${call.label}: ${text}`).toBe(call.status);
  return result;
}

/** Runs the calls in order (later ones may depend on the state earlier ones made). */
async function runAll(calls: readonly Call[]): Promise<Answered[]> {
  const results: Answered[] = [];
  for (const call of calls) results.push(await run(call));
  return results;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

/**
 * A schema with every object that lists its `properties` and says nothing of others closed
 * (`additionalProperties: false`): an answer field the document does not describe is a
 * drift too, not only a missing or mistyped one.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = closed(value);
  if ("properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}

/**
 * The validator of one schema of the document: compiled with the document's `components`
 * beside it, so its `#/components/schemas/…` references resolve as in the document; objects
 * closed ({@link closed}).
 */
function validatorOf(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv.compile(closed({ ...schema, components: doc.components ?? {} }) as object);
    validators.set(key, validate);
  }
  return validate;
}

/** The mismatches of one answer with the document (empty when it conforms). */
function problemsOf(result: Answered): string[] {
  const [method = "", template = ""] = result.operation.split(" ");
  const operation = doc.paths[template]?.[method.toLowerCase()];
  const where = `${result.call.label} (${result.operation} → ${result.status})`;
  if (operation === undefined) return [`${where}: no such documented operation`];
  const response = operation.responses[String(result.status)];
  if (response === undefined) return [`${where}: status ${result.status} is not documented`];
  const problems: string[] = [];
  const content = response.content ?? {};
  if (Object.keys(content).length === 0) {
    if (result.text !== "") problems.push(`${where}: documented without a body, answered one`);
  } else {
    const media = content[result.contentType];
    if (media === undefined) {
      problems.push(`${where}: media type ${result.contentType || "(none)"} is not documented`);
    } else if (result.contentType === "application/json" && media.schema !== undefined) {
      const validate = validatorOf(`${result.operation} ${result.status}`, media.schema);
      if (!validate(JSON.parse(result.text))) {
        problems.push(
          `${where}: ${ajv.errorsText(validate.errors)} in ${result.text.slice(0, 300)}`,
        );
      }
    }
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = result.headers.get(name);
    if (value === null) {
      problems.push(`${where}: documented header ${name} is missing`);
      continue;
    }
    const schema = (header as { schema?: { type?: string } }).schema;
    if (schema !== undefined) {
      const validate = validatorOf(`${result.operation} ${result.status} ${name}`, schema);
      const typed = schema.type === "integer" || schema.type === "number" ? Number(value) : value;
      if (!validate(typed)) problems.push(`${where}: header ${name}: ${value} fails its schema`);
    }
  }
  const requestSchema = operation.requestBody?.content["application/json"]?.schema;
  if (result.status < 300 && result.call.body !== undefined && requestSchema !== undefined) {
    const validate = validatorOf(`${result.operation} request`, requestSchema);
    if (!validate(result.call.body)) {
      problems.push(`${where}: the request body it accepted fails the documented request schema`);
    }
  }
  return problems;
}

beforeAll(async () => {
  main = await startTeamFixture({ edition: "max", shownRateLimit: 3 });
  community = await startTeamFixture();
  const now = Date.now();
  await addUser(main.store, { name: "root", siteAdmin: true, now });
  const repo = await main.store.getRepo(PRIVATE);
  for (const name of ["anna", "boris", "root"] as const) {
    const user = await main.store.getUser(name);
    if (repo === undefined || user === undefined) throw new Error("fixture");
    if (name !== "root") {
      await main.store.grant({
        repoId: repo.id,
        subject: { kind: "user", id: user.id },
        level: "write",
      });
    }
    full[name] = (await createToken(main.store, { user: name, scopes: SCOPES, now })).secret;
  }
  work = await mkdtemp(join(tmpdir(), "lore-openapi-"));
  await runGit({
    cwd: work,
    args: ["clone", "-q"],
    values: [bareRepoPath(main.data, PRIVATE)],
    paths: ["."],
  });
  const answer = await fetch(`${main.base}/api/v1/openapi.json`, {
    headers: { authorization: `Bearer ${main.tokens.vera}` },
  });
  doc = (await answer.json()) as OpenApiDoc;
}, 120_000);

afterAll(async () => {
  await main?.close();
  await community?.close();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

const repoPath = (fullName: string, rest = "") => `/api/v1/repos/${fullName}${rest}`;

describe("the OpenAPI document against real answers", () => {
  it("is OpenAPI 3.1 and its schemas compile as JSON Schema 2020-12", () => {
    expect(doc.openapi).toBe("3.1.0");
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const schema = response.content?.["application/json"]?.schema;
          if (schema !== undefined)
            validatorOf(`${method.toUpperCase()} ${template} ${status}`, schema);
        }
      }
    }
  });

  it("the user, repositories, index and raw-file reads", async () => {
    await runAll([
      {
        label: "who am I",
        method: "GET",
        path: "/api/v1/user",
        token: main.tokens.anna,
        status: 200,
      },
      { label: "no token", method: "GET", path: "/api/v1/user", status: 401 },
      {
        label: "token in the URL",
        method: "GET",
        path: `/api/v1/user?access_token=${main.tokens.anna}`,
        status: 400,
      },
      {
        label: "my repositories",
        method: "GET",
        path: "/api/v1/repos",
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "an index",
        method: "GET",
        path: repoPath(PRIVATE, "/knowledge"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "the index of a hidden repository",
        method: "GET",
        path: repoPath("acme/secret", "/knowledge"),
        token: main.tokens.vera,
        status: 404,
      },
      {
        label: "a file's bytes",
        method: "GET",
        path: repoPath("acme/public", "/raw/docs/readme.txt?ref=main"),
        token: main.tokens.vera,
        status: 200,
      },
      {
        label: "a file at a ref that is an option",
        method: "GET",
        path: repoPath("acme/public", "/raw/docs/readme.txt?ref=--output=x"),
        token: main.tokens.vera,
        status: 400,
      },
      {
        label: "a missing file",
        method: "GET",
        path: repoPath("acme/public", "/raw/docs/none.txt"),
        token: main.tokens.vera,
        status: 404,
      },
    ]);
  });

  it("the drafts, their delivery and the draft limits", async () => {
    const [written] = await runAll([
      {
        label: "write a draft",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: full.anna,
        body: WRITE_DRAFT,
        status: 201,
      },
      {
        label: "a draft body with an unknown field",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: full.anna,
        body: { ...WRITE_DRAFT, origin: "machine" },
        status: 400,
      },
      {
        label: "a draft body over 1 MiB",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: full.anna,
        body: { ...WRITE_DRAFT, body: "x".repeat(1024 * 1024 + 1) },
        status: 413,
      },
      {
        label: "a draft by a token without knowledge:write",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: main.tokens.anna,
        body: WRITE_DRAFT,
        status: 403,
      },
      {
        label: "a draft whose id another entry holds",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: full.anna,
        body: {
          branch: "main",
          text: `---\nid: ${ENTRY_OF_PRIVATE}\norigin: human\ncontract:\n  - mechanism: on_query\n    params:\n      words: [x]\nsummary: Taken\n---\n\nBody.\n`,
        },
        status: 409,
      },
      {
        label: "list drafts",
        method: "GET",
        path: repoPath(PRIVATE, "/knowledge/drafts?per_page=50"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "list drafts, per_page out of range",
        method: "GET",
        path: repoPath(PRIVATE, "/knowledge/drafts?per_page=0"),
        token: main.tokens.anna,
        status: 400,
      },
    ]);
    const draftId = (JSON.parse(written?.text ?? "{}") as { id: string }).id;
    expect(draftId).toMatch(/^[0-9a-f-]{36}$/);
    const [, second] = await runAll([
      {
        label: "deliver separately with a merge request",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts/deliver"),
        token: full.anna,
        body: { branch: "main", mode: "separate", label: "sqlx" },
        status: 200,
      },
      {
        label: "write a draft to remove",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts"),
        token: full.anna,
        body: { ...WRITE_DRAFT, title: "To be removed" },
        status: 201,
      },
      {
        label: "deliver into a separate branch that exists",
        method: "POST",
        path: repoPath(PRIVATE, "/knowledge/drafts/deliver"),
        token: full.anna,
        body: { branch: "main", mode: "separate", label: "sqlx" },
        status: 409,
      },
    ]);
    const removeId = (JSON.parse(second?.text ?? "{}") as { id: string }).id;
    const limits = "/api/v1/admin/knowledge/limits/users/anna";
    await runAll([
      {
        label: "remove a draft",
        method: "DELETE",
        path: repoPath(PRIVATE, `/knowledge/drafts/${removeId}`),
        token: full.anna,
        status: 204,
      },
      {
        label: "remove it again",
        method: "DELETE",
        path: repoPath(PRIVATE, `/knowledge/drafts/${removeId}`),
        token: full.anna,
        status: 404,
      },
      {
        label: "set a limit",
        method: "PUT",
        path: limits,
        token: full.root,
        body: { limit: 500 },
        status: 200,
      },
      {
        label: "set a limit, not a site admin",
        method: "PUT",
        path: limits,
        token: full.anna,
        body: { limit: 500 },
        status: 403,
      },
      {
        label: "set a limit, not a number",
        method: "PUT",
        path: limits,
        token: full.root,
        body: { limit: "many" },
        status: 400,
      },
      { label: "read a limit", method: "GET", path: limits, token: full.root, status: 200 },
      { label: "remove a limit", method: "DELETE", path: limits, token: full.root, status: 204 },
      { label: "read a removed limit", method: "GET", path: limits, token: full.root, status: 404 },
      {
        label: "remove a limit, not a site admin",
        method: "DELETE",
        path: limits,
        token: full.anna,
        status: 403,
      },
    ]);
  });

  it("the merge requests", async () => {
    await pushBranch("feature/notes");
    const pulls = repoPath(PRIVATE, "/pulls");
    await runAll([
      {
        label: "list merge requests",
        method: "GET",
        path: `${pulls}?state=all`,
        token: full.anna,
        status: 200,
      },
      {
        label: "open a merge request",
        method: "POST",
        path: pulls,
        token: full.boris,
        body: { source: "feature/notes", title: "Team notes" },
        status: 201,
      },
      {
        label: "open one with origin",
        method: "POST",
        path: pulls,
        token: full.boris,
        body: { source: "feature/notes", title: "Mine", origin: "machine" },
        status: 400,
      },
      {
        label: "list merge requests of a state that is none",
        method: "GET",
        path: `${pulls}?state=someday`,
        token: full.anna,
        status: 400,
      },
      {
        label: "open a merge request with a body that is not JSON",
        method: "POST",
        path: pulls,
        token: full.boris,
        headers: { "content-type": "application/json" },
        rawBody: "{not json",
        status: 400,
      },
      {
        label: "one merge request",
        method: "GET",
        path: `${pulls}/1`,
        token: full.anna,
        status: 200,
      },
      {
        label: "a missing merge request",
        method: "GET",
        path: `${pulls}/99`,
        token: full.anna,
        status: 404,
      },
      {
        label: "approve",
        method: "POST",
        path: `${pulls}/1/approve`,
        token: full.boris,
        status: 200,
      },
      {
        label: "approve, read-only token",
        method: "POST",
        path: `${pulls}/1/approve`,
        token: main.tokens.anna,
        status: 403,
      },
      { label: "merge", method: "POST", path: `${pulls}/1/merge`, token: full.boris, status: 200 },
      {
        label: "merge again",
        method: "POST",
        path: `${pulls}/1/merge`,
        token: full.boris,
        status: 409,
      },
      { label: "close", method: "POST", path: `${pulls}/2/close`, token: full.boris, status: 200 },
      {
        label: "close again",
        method: "POST",
        path: `${pulls}/2/close`,
        token: full.boris,
        status: 409,
      },
    ]);
  });

  it("the counters and the stats, on the Max server and the paid ones on a Community server", async () => {
    const known = IDS["acme/public"];
    const rateToken = (
      await createToken(main.store, {
        user: "boris",
        scopes: ["knowledge:read"],
        now: Date.now(),
      })
    ).secret;
    const shown = repoPath("acme/public", "/knowledge/shown");
    const tooMany = Array.from(
      { length: 257 },
      (_, i) => `${known.slice(0, -3)}${i.toString(16).padStart(3, "0")}`,
    );
    await runAll([
      {
        label: "mark shown",
        method: "POST",
        path: shown,
        token: main.tokens.anna,
        body: { ids: [known, UNKNOWN_ID] },
        status: 200,
      },
      {
        label: "mark 257 shown",
        method: "POST",
        path: shown,
        token: main.tokens.anna,
        body: { ids: tooMany },
        status: 400,
      },
      {
        label: "mark shown, no token",
        method: "POST",
        path: shown,
        body: { ids: [known] },
        status: 401,
      },
      {
        label: "mark shown on a hidden repository",
        method: "POST",
        path: repoPath("acme/secret", "/knowledge/shown"),
        token: main.tokens.vera,
        body: { ids: [IDS["acme/secret"]] },
        status: 404,
      },
      {
        label: "mark shown, a body over 1 MiB",
        method: "POST",
        path: shown,
        token: main.tokens.anna,
        body: { ids: ["x".repeat(1024 * 1024 + 1)] },
        status: 413,
      },
      ...[1, 2, 3].map((n) => ({
        label: `mark shown, call ${n} of the minute`,
        method: "POST" as const,
        path: shown,
        token: rateToken,
        body: { ids: [known] },
        status: 200,
      })),
      {
        label: "mark shown, over the rate limit",
        method: "POST",
        path: shown,
        token: rateToken,
        body: { ids: [known] },
        status: 429,
      },
      {
        label: "mark read",
        method: "POST",
        path: repoPath("acme/public", `/knowledge/entries/${known}/read`),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "mark read, no such entry",
        method: "POST",
        path: repoPath("acme/public", `/knowledge/entries/${UNKNOWN_ID}/read`),
        token: main.tokens.anna,
        status: 404,
      },
      {
        label: "my stats",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/me"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "my stats, no token",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/me"),
        status: 401,
      },
      {
        label: "team stats",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/team"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "team stats of a hidden repository",
        method: "GET",
        path: repoPath("acme/secret", "/knowledge/stats/team"),
        token: main.tokens.anna,
        status: 404,
      },
      {
        label: "team stats on Community",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/team"),
        token: community.tokens.anna,
        status: 402,
        server: "community",
      },
      {
        label: "daily usage",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/daily?days=7"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "daily usage of one entry",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/daily?days=1&id=x"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "daily usage, days out of range",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/daily?days=400"),
        token: main.tokens.anna,
        status: 400,
      },
      {
        label: "daily usage of a hidden repository",
        method: "GET",
        path: repoPath("acme/secret", "/knowledge/stats/daily"),
        token: main.tokens.anna,
        status: 404,
      },
      {
        label: "daily usage on Community",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/daily"),
        token: community.tokens.anna,
        status: 402,
        server: "community",
      },
      {
        label: "dead memory",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/dead?min_shown=1&min_age_days=0"),
        token: main.tokens.anna,
        status: 200,
      },
      {
        label: "dead memory, a threshold out of range",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/dead?min_shown=0"),
        token: main.tokens.anna,
        status: 400,
      },
      {
        label: "dead memory on Community",
        method: "GET",
        path: repoPath("acme/public", "/knowledge/stats/dead"),
        token: community.tokens.anna,
        status: 402,
        server: "community",
      },
    ]);
  });

  it("the administration endpoints: a site admin with the admin scope, refusals", async () => {
    const key =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop";
    const admin = "/api/v1/admin";
    const root = full.root;
    const tools = `${admin}/repos/acme/tools`;
    const [, , token, , added] = await runAll([
      {
        label: "admin: add a user",
        method: "POST",
        path: `${admin}/users`,
        token: root,
        body: { name: "gleb" },
        status: 201,
      },
      {
        label: "admin: add a user, not a site admin",
        method: "POST",
        path: `${admin}/users`,
        token: full.anna,
        body: { name: "x" },
        status: 403,
      },
      {
        label: "admin: create a token",
        method: "POST",
        path: `${admin}/tokens`,
        token: root,
        body: { user: "gleb", scopes: ["repo:read"], expires: "30d", label: "ci" },
        status: 201,
      },
      {
        label: "admin: create a token, no such user",
        method: "POST",
        path: `${admin}/tokens`,
        token: root,
        body: { user: "nobody", scopes: ["repo:read"] },
        status: 404,
      },
      {
        label: "admin: register a key",
        method: "POST",
        path: `${admin}/keys`,
        token: root,
        body: { user: "gleb", key },
        status: 201,
      },
      {
        label: "admin: register it again",
        method: "POST",
        path: `${admin}/keys`,
        token: root,
        body: { user: "gleb", key },
        status: 409,
      },
      {
        label: "admin: add a group",
        method: "POST",
        path: `${admin}/groups`,
        token: root,
        body: { name: "leads" },
        status: 201,
      },
      {
        label: "admin: add a member",
        method: "PUT",
        path: `${admin}/groups/leads/members/gleb`,
        token: root,
        status: 204,
      },
      {
        label: "admin: create a repository",
        method: "POST",
        path: `${admin}/repos`,
        token: root,
        body: { full_name: "acme/tools", public: true, default_branch: "trunk" },
        status: 201,
      },
      {
        label: "admin: create it again",
        method: "POST",
        path: `${admin}/repos`,
        token: root,
        body: { full_name: "acme/tools" },
        status: 409,
      },
      {
        label: "admin: grant",
        method: "PUT",
        path: `${tools}/access/group:leads`,
        token: root,
        body: { level: "write" },
        status: 200,
      },
      {
        label: "admin: grant, unknown field",
        method: "PUT",
        path: `${tools}/access/gleb`,
        token: root,
        body: { levle: "write" },
        status: 400,
      },
      {
        label: "admin: protect",
        method: "PUT",
        path: `${tools}/protected-branches/${encodeURIComponent("release/*")}`,
        token: root,
        body: { push: ["gleb"], required_approvals: 1 },
        status: 200,
      },
      {
        label: "admin: list users",
        method: "GET",
        path: `${admin}/users`,
        token: root,
        status: 200,
      },
      { label: "admin: list users, no token", method: "GET", path: `${admin}/users`, status: 401 },
      {
        label: "admin: list tokens",
        method: "GET",
        path: `${admin}/tokens?user=gleb`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list groups",
        method: "GET",
        path: `${admin}/groups`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list members",
        method: "GET",
        path: `${admin}/groups/leads/members`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list keys",
        method: "GET",
        path: `${admin}/keys?user=gleb`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list repositories",
        method: "GET",
        path: `${admin}/repos`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list grants",
        method: "GET",
        path: `${tools}/access`,
        token: root,
        status: 200,
      },
      {
        label: "admin: list grants, no such repository",
        method: "GET",
        path: `${admin}/repos/acme/none/access`,
        token: root,
        status: 404,
      },
      {
        label: "admin: list rules",
        method: "GET",
        path: `${tools}/protected-branches`,
        token: root,
        status: 200,
      },
    ]);
    const tokenId = (JSON.parse(token?.text ?? "{}") as { token: { id: number } }).token.id;
    const keyId = (JSON.parse(added?.text ?? "{}") as { id: number }).id;
    await runAll([
      {
        label: "admin: unprotect",
        method: "DELETE",
        path: `${tools}/protected-branches/${encodeURIComponent("release/*")}`,
        token: root,
        status: 200,
      },
      {
        label: "admin: revoke a grant",
        method: "DELETE",
        path: `${tools}/access/group:leads`,
        token: root,
        status: 200,
      },
      {
        label: "admin: remove a member",
        method: "DELETE",
        path: `${admin}/groups/leads/members/gleb`,
        token: root,
        status: 200,
      },
      {
        label: "admin: remove a group",
        method: "DELETE",
        path: `${admin}/groups/leads`,
        token: root,
        status: 204,
      },
      {
        label: "admin: remove a key",
        method: "DELETE",
        path: `${admin}/keys/${keyId}`,
        token: root,
        status: 200,
      },
      {
        label: "admin: revoke a token",
        method: "DELETE",
        path: `${admin}/tokens/${tokenId}`,
        token: root,
        status: 204,
      },
      {
        label: "admin: revoke it again",
        method: "DELETE",
        path: `${admin}/tokens/${tokenId}`,
        token: root,
        status: 404,
      },
      {
        label: "admin: remove a repository",
        method: "DELETE",
        path: tools,
        token: root,
        status: 200,
      },
      {
        label: "admin: remove a user",
        method: "DELETE",
        path: `${admin}/users/gleb`,
        token: root,
        status: 204,
      },
    ]);
    await runAll([
      {
        label: "admin: add a user, a body over 1 MiB",
        method: "POST",
        path: `${admin}/users`,
        token: root,
        body: { name: "x".repeat(1024 * 1024 + 1) },
        status: 413,
      },
    ]);
  });

  it("every paid address documents 402 and answers it on Community, also for a hidden repository", async () => {
    for (const feature of Object.values(PAID_FEATURES)) {
      const operation = doc.paths[feature.path]?.[feature.method.toLowerCase()];
      expect(operation?.responses["402"], `${feature.method} ${feature.path}`).toBeDefined();
      const path = feature.path
        .replace("{owner}/{name}", "acme/secret")
        .replace("{kind}", "users")
        .replace("{id}", "anna");
      const answer = await run({
        label: `${feature.name} on Community`,
        method: feature.method,
        path,
        token: community.tokens.vera,
        ...(feature.method === "PUT" ? { body: { limit: 5 } } : {}),
        status: 402,
        server: "community",
      });
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { code: "license_required", data: { feature: feature.name, edition: "community" } },
      });
    }
  });

  it("the check itself flags a body its schema refuses, an extra field, an undocumented status, a missing or bad header", () => {
    const user = answered.find((a) => a.call.label === "who am I");
    if (user === undefined) throw new Error("the user call was not made");
    const { scopes: _scopes, ...noScopes } = JSON.parse(user.text) as Record<string, unknown>;
    expect(problemsOf({ ...user, text: JSON.stringify(noScopes) })).toHaveLength(1);
    const extra = { ...(JSON.parse(user.text) as object), team_total: 3 };
    expect(problemsOf({ ...user, text: JSON.stringify(extra) })[0]).toMatch(/additional/);
    expect(problemsOf({ ...user, status: 418 })[0]).toMatch(/status 418 is not documented/);
    expect(problemsOf({ ...user, contentType: "text/html" })[0]).toMatch(/media type text\/html/);
    const limited = answered.find((a) => a.call.label === "mark shown, over the rate limit");
    if (limited === undefined) throw new Error("the rate-limited call was not made");
    expect(problemsOf(limited)).toEqual([]);
    expect(problemsOf({ ...limited, headers: new Headers() })[0]).toMatch(/Retry-After is missing/);
    const zero = new Headers({ "retry-after": "0" });
    expect(problemsOf({ ...limited, headers: zero })[0]).toMatch(/Retry-After: 0 fails/);
  });

  it("every answer conforms and every documented operation was called", () => {
    const problems = answered.flatMap(problemsOf);
    expect(problems).toEqual([]);
    const called = new Set(answered.map((a) => a.operation));
    const documented = Object.entries(doc.paths).flatMap(([template, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${template}`),
    );
    expect(documented.filter((operation) => !called.has(operation))).toEqual([]);
    expect([...called].filter((operation) => operation.endsWith("(undocumented)"))).toEqual([]);
  });
});
