/**
 * A real team server for the HTTP tests: a data folder with `server.db`, three users (anna,
 * boris, vera) with tokens, three hosted bare repositories filled by a real `git push`
 * (acme/public public; acme/private readable by anna only; acme/secret readable by none of
 * them), a real SQLite index, and the Hono application served by `@hono/node-server` on
 * 127.0.0.1. Nothing is mocked: the freshen collaborator indexes the bare repository's
 * default branch with the indexing service.
 */
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getRequestListener } from "@hono/node-server";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { initBareRepo } from "../../src/adapters/git-cli/init-bare.js";
import { readFileAt } from "../../src/adapters/git-cli/read-file-at.js";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import type { Scope } from "../../src/core/access/rights.js";
import type { Edition } from "../../src/core/editions/edition.js";
import { createHttpApp } from "../../src/http/create-http-app.js";
import type { HttpEnv, ServerApi } from "../../src/http/server-api.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { indexHostedRepo } from "../../src/main/index-hosted-repo.js";
import { openServerStore } from "../../src/main/open-server.js";
import { createServerApi } from "../../src/main/server-api.js";
import { createMcpServer } from "../../src/mcp/create-mcp-server.js";
import type { IndexStore } from "../../src/ports/index-store.js";
import type { ServerStore } from "../../src/ports/server-store.js";
import { bareRepoPath, createRepo } from "../../src/services/access/hosted-repos.js";
import { createToken } from "../../src/services/access/tokens.js";
import { addUser } from "../../src/services/access/users.js";
import { makeRepo, type RepoFiles } from "../helpers/make-repo.js";

/** The word every matrix entry answers to (one entry per repository). */
export const MATRIX_WORD = "ротация";

/** The entry id of each repository's one entry. */
export const IDS = {
  "acme/public": "0193a000-0000-7000-8000-00000000000a",
  "acme/private": "0193a000-0000-7000-8000-00000000000b",
  "acme/secret": "0193a000-0000-7000-8000-00000000000c",
} as const;

/** An entry file answering `words`, with a summary naming its repository. */
export function entryFile(id: string, words: readonly string[], summary: string): string {
  return `---
id: ${id}
origin: human
contract:
  - mechanism: on_query
    params:
      words: [${words.map((w) => JSON.stringify(w)).join(", ")}]
summary: ${summary}
---

${summary}. Body of ${id}.
`;
}

/** A running fixture. */
export interface TeamFixture {
  base: string;
  port: number;
  data: string;
  store: ServerStore;
  index: EntryIndex;
  app: OpenAPIHono<HttpEnv>;
  /** The server's API the application calls. */
  api: ServerApi;
  /** Token secrets by user. */
  tokens: Record<"anna" | "boris" | "vera", string>;
  /** Pushes files onto a hosted repository's main branch (a new commit). */
  push(fullName: string, files: RepoFiles): Promise<void>;
  close(): Promise<void>;
}

const READ_SCOPES: Scope[] = ["knowledge:read", "repo:read"];

/** Options of {@link startTeamFixture}. */
export interface TeamFixtureOptions {
  /** More files per repository for the first push. */
  extra?: Partial<Record<keyof typeof IDS, RepoFiles>>;
  /**
   * Routes to mount as `lore serve`'s caller would (`HttpAppDeps.extraRoutes`); also given
   * the store and the data folder (git smart HTTP needs them).
   */
  extraRoutes?: (
    app: OpenAPIHono<HttpEnv>,
    server: { store: ServerStore; dataDir: string },
  ) => void;
  /** The built web view's folder (`HttpAppDeps.webDir`). Default: the package's `dist/web`. */
  webDir?: string;
  /** The server's edition (`ServerApiDeps.edition`). Default: community. */
  edition?: Edition;
  /** `ServerApiDeps.shownRateLimit`. Default: 600. */
  shownRateLimit?: number;
  /** The server's clock (`ServerApiDeps.now`). Default: `Date.now`. */
  now?: () => number;
  /** The index's clock of entry ages (`OpenIndexOptions.now`). Default: `Date.now`. */
  indexNow?: () => number;
  /**
   * The index's records shared by servers (`ServerApiDeps.indexStore`: PostgreSQL's); the
   * fixture closes it. Default: the SQLite view of the fixture's index.
   */
  indexStore?: IndexStore;
}

/**
 * Starts the fixture (see the module header).
 *
 * @param options - see {@link TeamFixtureOptions}.
 */
export async function startTeamFixture(options: TeamFixtureOptions = {}): Promise<TeamFixture> {
  const extra = options.extra ?? {};
  const root = mkdtempSync(join(tmpdir(), "lore-team-"));
  const data = join(root, "data");
  const store = await openServerStore(data);
  const index = openIndex(
    join(root, "index.db"),
    options.indexNow === undefined ? {} : { now: options.indexNow },
  );
  const now = Date.now();
  const tokens = {} as Record<"anna" | "boris" | "vera", string>;
  for (const name of ["anna", "boris", "vera"] as const) {
    await addUser(store, { name, now });
    tokens[name] = (await createToken(store, { user: name, scopes: READ_SCOPES, now })).secret;
  }
  const deps = { store, dataDir: data, initBare: initBareRepo };
  const works = new Map<string, Awaited<ReturnType<typeof makeRepo>>>();
  const push = async (fullName: string, files: RepoFiles) => {
    let work = works.get(fullName);
    if (work === undefined) {
      work = await makeRepo(files);
      works.set(fullName, work);
    } else {
      await work.commit(files);
    }
    await runGit({
      cwd: work.dir,
      args: ["push", "-q", "--force"],
      values: [bareRepoPath(data, fullName), "HEAD:refs/heads/main"],
    });
  };
  for (const [fullName, id] of Object.entries(IDS)) {
    const { repo } = await createRepo(deps, {
      fullName,
      public: fullName === "acme/public",
      now,
    });
    if (fullName === "acme/private") {
      const anna = await store.getUser("anna");
      await store.grant({
        repoId: repo.id,
        subject: { kind: "user", id: anna?.id ?? -1 },
        level: "read",
      });
    }
    await push(fullName, {
      ".gitriver/knowledge/entry.md": entryFile(id, [MATRIX_WORD], `Entry of ${fullName}`),
      "docs/readme.txt": `readme of ${fullName}\n`,
      ...(extra[fullName as keyof typeof IDS] ?? {}),
    });
  }
  const api = createServerApi({
    store,
    index,
    dataDir: data,
    freshen: indexHostedRepo(index),
    readFile: readFileAt,
    ...(options.edition === undefined ? {} : { edition: options.edition }),
    ...(options.shownRateLimit === undefined ? {} : { shownRateLimit: options.shownRateLimit }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.indexStore === undefined ? {} : { indexStore: options.indexStore }),
  });
  const app = createHttpApp({
    api,
    loopbackOnly: true,
    createMcpServer: (principal, lang, client) =>
      createMcpServer(api.mcpPort(principal), {
        lang,
        ...(client === undefined ? {} : { clientName: client }),
      }),
    ...(options.extraRoutes === undefined
      ? {}
      : { extraRoutes: (on) => options.extraRoutes?.(on, { store, dataDir: data }) }),
    ...(options.webDir === undefined ? {} : { webDir: options.webDir }),
  });
  const http: Server = createServer(getRequestListener(app.fetch));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    data,
    store,
    index,
    app,
    api,
    tokens,
    push,
    async close() {
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
      await options.indexStore?.close();
      index.close();
      await store.close();
      for (const work of works.values()) await work.cleanup();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * One JSON call of the fixture's REST API over real HTTP with a bearer token.
 *
 * @param base - the server's base URL (`team.base`).
 * @param path - from the root, e.g. `/api/v1/repos/acme/app/knowledge`.
 * @param body - sent as JSON when given.
 * @returns the status, the parsed body (`undefined` when empty) and the headers.
 */
export async function callJson(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in the assertions.
): Promise<{ status: number; body: any; headers: Headers }> {
  const answer = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    body: text === "" ? undefined : JSON.parse(text),
    headers: answer.headers,
  };
}

/**
 * Gives a fixture user write on a repository and a token with every knowledge and repo
 * scope (what a writer's agent holds).
 *
 * @returns the token's secret.
 */
export async function writerToken(team: TeamFixture, user: string, fullName: string) {
  const who = await team.store.getUser(user);
  const repo = await team.store.getRepo(fullName);
  await team.store.grant({
    repoId: repo?.id ?? -1,
    subject: { kind: "user", id: who?.id ?? -1 },
    level: "write",
  });
  const scopes: Scope[] = ["knowledge:read", "knowledge:write", "repo:read", "repo:write"];
  return (await createToken(team.store, { user, scopes, now: Date.now() })).secret;
}
