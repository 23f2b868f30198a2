/**
 * The team server's composition root (`lore serve`, seed 004): the data folder's store, the
 * index, the rights-checked reads and the one HTTP application on `[server] host`/`port`.
 */
import type { Server } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { OpenAPIHono } from "@hono/zod-openapi";
import {
  createGitServices,
  DEFAULT_GIT_SERVICE_LIMITS,
  type GitServiceLimits,
} from "../adapters/git-cli/spawn-git-service.js";
import type { LicenceState } from "../core/editions/edition.js";
import type { Lang } from "../core/errors/localized-text.js";
import { LoreError } from "../core/errors/lore-error.js";
import { INDEXED_BY_SERVER_ENV } from "../core/push/hook-environment.js";
import { createHttpApp } from "../http/create-http-app.js";
import { gitHttpRoutes } from "../http/git/git-http-routes.js";
import { isLoopback } from "../http/request-guards.js";
import type { HttpEnv } from "../http/server-api.js";
import { openIndex } from "../index/entry-index.js";
import { createMcpServer } from "../mcp/create-mcp-server.js";
import type { ToolNameStyle } from "../mcp/tool-names.js";
import type { RepoRecord, ServerStore } from "../ports/server-store.js";
import { bareRepoPath } from "../services/access/hosted-repos.js";
import { PUSH_LOCK_WAIT_MS } from "../services/push/heal-index.js";
import { installHooks } from "../services/push/install-hooks.js";
import { syncProtectionMarker } from "../services/push/protection-marker.js";
import { type RunningSshServer, startSshServer } from "../ssh/ssh-server.js";
import type { Lore, ServedIndex } from "./compose.js";
import { hookInstallOptions } from "./compose-hook.js";
import { firstStart } from "./first-start.js";
import { type FreshenOptions, indexHostedRepo } from "./index-hosted-repo.js";
import { licenceWarning, loadLicence } from "./load-licence.js";
import { openServerStore, openSharedIndexStore } from "./open-server.js";
import { createServerApi, type HostedRepo, rootsForbidden } from "./server-api.js";
import { claimServerIndex } from "./server-index-file.js";

export { OWNER_TOKEN_FILE } from "./first-start.js";

/**
 * How long the server keeps an idle keep-alive connection open, ms: above a proxy's own
 * idle time (nginx `keepalive_timeout` 60 s; Node's default is 5 s), so a proxy in front
 * never sends a request on a connection the server is just closing (a POST nginx cannot
 * pass on again: a 502).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** The time to receive a request's headers, ms: above {@link KEEP_ALIVE_TIMEOUT_MS}, as Node needs. */
export const HEADERS_TIMEOUT_MS = 66_000;

/** Options of {@link startTeamServer}. */
export interface TeamServerOptions {
  /** The OS user's Lore (settings, the index, the local sources and roots). */
  lore: Lore;
  host: string;
  port: number;
  /** Local repositories or folders to index and serve to site admins (`--repo`). */
  repos: readonly string[];
  lang: Lang;
  version: string;
  toolNames?: ToolNameStyle;
  /** Writes a line to stderr. */
  log: (line: string) => void;
  /**
   * Brings a hosted repository's index up to its default branch before a read. Default:
   * {@link indexHostedRepo} over a writer connection of its own (parse on push's heal).
   */
  freshen?: (repo: HostedRepo, options?: FreshenOptions) => Promise<void>;
  /**
   * Port of the SSH server (git over SSH, `[server] ssh_port`); `0` = off. Default: off.
   * It listens on `host` too.
   */
  sshPort?: number;
  /**
   * Mounts more routes on the application; they run behind the guards and the token
   * check, before git smart HTTP (always mounted). Also receives the store and data folder.
   */
  extraRoutes?: (
    app: OpenAPIHono<HttpEnv>,
    server: { store: ServerStore; dataDir: string },
  ) => void;
  /**
   * The licence's state (seed 004 editions). Default: {@link loadLicence} of `[server]
   * license` with `LORE_LICENSE_PUBLIC_KEY` of the process's environment.
   */
  licence?: LicenceState;
}

/** A running team server. */
export interface TeamServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:7377/mcp`. */
  url: string;
  /** The server's base address, e.g. `http://127.0.0.1:7377`. */
  base: string;
  port: number;
  /** The server's records. */
  store: ServerStore;
  /** The edition it runs and why (also `license` of `GET /healthz`). */
  licence: LicenceState;
  /** The SSH server's port; absent when it is off. */
  sshPort?: number;
  /** The SSH host key's fingerprint (`SHA256:…`, as `ssh` shows it); absent when SSH is off. */
  sshFingerprint?: string;
  dataDir: string;
  /** Stops listening, ends open connections, stops the index upkeep, closes the store. */
  close(): Promise<void>;
}

/**
 * Starts `lore serve`: opens the server's store (`<data>/server.db`, or PostgreSQL by
 * `[server] database`), refuses a non-loopback address while no
 * user holds a token, creates on a first start (no user yet) a site-admin user named after
 * the OS user with a token of every scope written to `<data>/owner-token` (mode 0600) and
 * says on stderr how to use it (once, when several servers start at once: `first-start.ts`),
 * serves the application (idle keep-alive connections kept {@link KEEP_ALIVE_TIMEOUT_MS},
 * for a proxy in front), then starts the index upkeep of the local sources and, in the
 * background, heals the index of every hosted repository whose default branch moved while
 * the server was down.
 *
 * @param options - see {@link TeamServerOptions}.
 * The licence is checked first: a bad one stops the start before anything is opened; an
 * expired one is logged and the server runs the Community edition.
 *
 * @throws LoreError `license_invalid` (`[server] license` is not a valid licence),
 *   `listen_needs_auth` (a non-loopback host and no user with a token), `address_in_use`, `invalid_input` (a port or host this user cannot listen on),
 *   `index_failed`, `index_of_another_server` (the index file holds another data folder's repositories).
 */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServer> {
  const { lore, log, lang } = options;
  const licence = options.licence ?? (await loadLicence(lore.settings.server.license, process.env));
  const warning = licenceWarning(licence, lore.settings.server.license ?? "", lang);
  if (warning !== undefined) log(warning);
  const dataDir = lore.settings.server.data;
  claimServerIndex(lore.entryIndex, dataDir, lore.settings.database);
  const loopbackOnly = isLoopback(options.host);
  const store = await openServerStore(dataDir, lore.settings.server.database);
  // Counters, delivery locks and load receipts: PostgreSQL with `[server] database`, else
  // the SQLite index.
  const receiptKeepDays = lore.settings.receipts?.keepDays;
  const indexStore = await openSharedIndexStore(
    lore.settings.server.database,
    receiptKeepDays === undefined ? {} : { receiptKeepDays },
  ).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  let served: ServedIndex | undefined;
  let http: Server | undefined;
  let ssh: RunningSshServer | undefined;
  // Heals write through a connection of their own: a heal is one transaction, and the
  // readers' connection must not see it half done.
  const writer = options.freshen === undefined ? openIndex(lore.settings.database) : undefined;
  let healing: Promise<void> = Promise.resolve();
  let closing = false;
  try {
    if (!loopbackOnly && (await store.listTokens()).length === 0) {
      throw new LoreError("listen_needs_auth", { host: options.host });
    }
    const first = (await store.countUsers()) === 0;
    const ownerToken = first ? await firstStart(store, dataDir, lore.settings.user) : undefined;
    // Both transports share one bound on git processes (`[server] git_max_processes`,
    // `git_max_queue`, `git_timeout_ms`; absent keys keep the defaults).
    // The server indexes every push it serves itself (one writer of the index).
    const limits = gitLimitsOf(lore.settings.server.git);
    const git = createGitServices({ ...limits, env: { [INDEXED_BY_SERVER_ENV]: "1" } });
    let indexing = true;
    const local = lore.port(Promise.resolve(), { remote: true });
    const freshen = options.freshen ?? indexHostedRepo(writer ?? lore.entryIndex, lang);
    // A push waits for the index's write lock briefly, and not at all when it changed no
    // knowledge file: a `lore index` or a long heal holding the lock must not stall pushes
    // (the next read heals; seed 004, "Разбор при отправке").
    const afterPush = (repo: RepoRecord) =>
      freshen(
        {
          fullName: repo.fullName,
          dir: bareRepoPath(dataDir, repo.fullName),
          defaultBranch: repo.defaultBranch,
        },
        { lockWaitMs: PUSH_LOCK_WAIT_MS, deferUnchanged: true },
      );
    // The server stores each load receipt as it answers (durable, like its counters)
    // through the index store — PostgreSQL with `[server] database` — rather than queueing
    // it (README "Load receipts"); a receipt of its SQLite index is written at once too.
    lore.entryIndex.receipts.durable = true;
    const api = createServerApi({
      store,
      index: lore.entryIndex,
      dataDir,
      freshen,
      readFile: async (dir, ref, path) =>
        (await import("../adapters/git-cli/read-file-at.js")).readFileAt(dir, ref, path),
      local: {
        lore,
        targets: options.repos,
        port: {
          ...local,
          get ready() {
            return served?.ready ?? Promise.resolve();
          },
          // The start-up indexing first, then the sources whose HEAD moved.
          fresh: (signal?: AbortSignal) =>
            served === undefined
              ? Promise.resolve()
              : served.ready.then(() => served?.fresh(signal)),
        },
      },
      health: () => ({ version: options.version, indexing, license: licence }),
      log,
      // A repository created over the API gets Lore's push hooks, as `lore repo create`'s.
      afterCreateRepo: (dir) => installHooks(dir, hookInstallOptions(lore.settings, dataDir)),
      edition: licence.edition,
      ...(indexStore === undefined ? {} : { indexStore }),
      ...(writer === undefined ? {} : { healIndex: writer }),
      ...(lore.settings.server.shownRateLimit === undefined
        ? {}
        : { shownRateLimit: lore.settings.server.shownRateLimit }),
    });
    const app = createHttpApp({
      api,
      loopbackOnly,
      log,
      createMcpServer: (principal, requestLang, client) =>
        createMcpServer(api.mcpPort(principal), {
          ...(principal.siteAdmin ? {} : { rootsRefusal: rootsForbidden() }),
          ...(client === undefined ? {} : { clientName: client }),
          ...(options.toolNames === undefined ? {} : { toolNames: options.toolNames }),
          lang: requestLang,
          version: options.version,
        }),
      extraRoutes: (on) => {
        options.extraRoutes?.(on, { store, dataDir });
        on.route("/", gitHttpRoutes({ store, dataDir, git, log, afterPush }));
      },
    });
    await recheckHooks(store, dataDir, lore, log);
    http = createServer(getRequestListener(app.fetch));
    // Node cuts a request after 300 s by default: a large push may take up to git's own
    // time limit, which then ends it with a clear error instead.
    http.requestTimeout = limits.timeoutMs + 60_000;
    http.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Node wants the headers' time within the request's (a small `git_timeout_ms`).
    http.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, http.requestTimeout);
    const port = await listen(http, options.host, options.port);
    if ((options.sshPort ?? 0) > 0) {
      ssh = await startSshServer({
        store,
        dataDir,
        host: options.host,
        port: options.sshPort ?? 0,
        git,
        log,
        afterPush,
      }).catch((error: unknown) => {
        throw listenError(error, options.host, options.sshPort ?? 0, "ssh");
      });
    }
    // Indexing starts once the server listens: when it cannot (address_in_use), nothing
    // runs on after the refusal.
    served = lore.serveIndex(options.repos);
    void served.ready.finally(() => {
      indexing = false;
    });
    // Hosted repositories whose default branch moved while the server was down (a push
    // with hooks off, a crash before post-receive) are healed now, in the background,
    // rather than on their first read.
    healing = healHostedRepos(store, dataDir, freshen, log, () => closing);
    const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
    const base = `http://${shown}:${port}`;
    if (ownerToken !== undefined) log(ownerNotice(ownerToken, base, lang));
    const server = http;
    const sshServer = ssh;
    return {
      url: `${base}/mcp`,
      base,
      port,
      store,
      licence,
      dataDir,
      ...(sshServer === undefined
        ? {}
        : { sshPort: sshServer.port, sshFingerprint: sshServer.fingerprint }),
      close: async () => {
        closing = true;
        await new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        });
        await sshServer?.close();
        // The start-up heal stops between repositories; the one under way ends first.
        await healing;
        await served?.close();
        writer?.close();
        await indexStore?.close();
        await store.close();
      },
    };
  } catch (error) {
    http?.close();
    await ssh?.close();
    await served?.close();
    writer?.close();
    await indexStore?.close();
    await store.close();
    throw error;
  }
}

/**
 * The bounds of the server's git processes from `[server] git_max_processes`,
 * `git_max_queue` and `git_timeout_ms` (ms), each absent key taking its default
 * ({@link DEFAULT_GIT_SERVICE_LIMITS}: 32, 256, 600 000).
 */
export function gitLimitsOf(
  keys: { maxProcesses?: number; maxQueue?: number; timeoutMs?: number } | undefined,
): GitServiceLimits {
  return {
    maxProcesses: keys?.maxProcesses ?? DEFAULT_GIT_SERVICE_LIMITS.maxProcesses,
    maxQueue: keys?.maxQueue ?? DEFAULT_GIT_SERVICE_LIMITS.maxQueue,
    timeoutMs: keys?.timeoutMs ?? DEFAULT_GIT_SERVICE_LIMITS.timeoutMs,
  };
}

/**
 * Re-checks Lore's hooks in every hosted repository at start (seed 004, "Разбор при
 * отправке"; written at `lore repo create`): a hook written by another Lore (another node,
 * another index file) is rewritten; a hook that is not Lore's is left alone and logged.
 * The protection marker (`PROTECTED_MARKER`) is brought in step with the rules too.
 */
async function recheckHooks(
  store: ServerStore,
  dataDir: string,
  lore: Lore,
  log: (line: string) => void,
): Promise<void> {
  const hooks = hookInstallOptions(lore.settings, dataDir);
  for (const repo of await store.listRepos()) {
    const dir = bareRepoPath(dataDir, repo.fullName);
    await installHooks(dir, hooks).catch((error: unknown) => {
      log(`lore: hooks of ${repo.fullName} not checked: ${String(error)}`);
    });
    await syncProtectionMarker(store, dataDir, repo.fullName).catch((error: unknown) => {
      log(`lore: protection marker of ${repo.fullName} not written: ${String(error)}`);
    });
  }
}

/**
 * Heals every hosted repository once at start (seed 004, "Разбор при отправке":
 * self-healing): `freshen` compares the recorded commit with the default branch's head and
 * brings the index up to date when they differ (nothing when they agree). One repository
 * at a time; a failure is logged and the next goes on; stops between repositories once
 * `stopped()` says so (the server is closing). Never rejects.
 */
async function healHostedRepos(
  store: ServerStore,
  dataDir: string,
  freshen: (repo: HostedRepo) => Promise<void>,
  log: (line: string) => void,
  stopped: () => boolean,
): Promise<void> {
  try {
    for (const repo of await store.listRepos()) {
      if (stopped()) return;
      await freshen({
        fullName: repo.fullName,
        dir: bareRepoPath(dataDir, repo.fullName),
        defaultBranch: repo.defaultBranch,
      }).catch((error: unknown) => {
        const reason =
          error instanceof LoreError ? `${error.text.en} [${error.code}]` : String(error);
        log(`lore: the index of ${repo.fullName} could not be healed at start: ${reason}`);
      });
    }
  } catch (error) {
    log(`lore: the start-up heal of hosted repositories stopped: ${String(error)}`);
  }
}

/** What a first start says on stderr: whose token, where, and how to pass it. */
function ownerNotice(file: string, base: string, lang: Lang): string {
  const add = `claude mcp add --transport http lore ${base}/mcp --header "Authorization: Bearer $(cat ${file})"`;
  return lang === "ru"
    ? `lore: первый запуск: создан пользователь-администратор и его токен в ${file} (режим 0600). Подключение:\n  ${add}`
    : `lore: first start: created the site-admin user and its token in ${file} (mode 0600). Connect with:\n  ${add}`;
}

/** Listens, turning listen errors into refusals that say what to do. */
function listen(http: Server, host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const fail = (error: unknown) => reject(listenError(error, host, port, "http"));
    http.once("error", fail);
    http.listen(port, host, () => {
      http.off("error", fail);
      resolve((http.address() as AddressInfo).port);
    });
  });
}

/**
 * A listen error as a refusal that says what to do, naming the option of the port that
 * clashed: `--port` for the HTTP port, `--ssh-port` for git over SSH (where 0 turns SSH off
 * rather than picking a free port).
 *
 * @param which - `http` (the `--port` listener) or `ssh` (the `--ssh-port` one).
 * @returns LoreError `address_in_use` (EADDRINUSE), `invalid_input` (EACCES, an address not
 *   of this machine), or the error itself.
 */
function listenError(error: unknown, host: string, port: number, which: "http" | "ssh"): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  const flag = which === "ssh" ? "--ssh-port" : "--port";
  if (code === "EADDRINUSE") {
    return new LoreError(
      "address_in_use",
      which === "ssh"
        ? {
            address,
            choices:
              "--ssh-port N (the git over SSH port), or --ssh-port 0 to turn git over SSH off",
            choices_ru:
              "--ssh-port N (порт git по SSH), или --ssh-port 0, чтобы отключить git по SSH",
          }
        : {
            address,
            choices: "--port N, or --port 0 for any free one",
            choices_ru: "--port N, или --port 0 для любого свободного",
          },
      { cause: error },
    );
  }
  if (code === "EACCES") {
    return new LoreError(
      "invalid_input",
      {
        reason: `cannot listen on ${address}: permission denied (ports below 1024 need privileges); pick another: ${flag} N`,
        reason_ru: `не удаётся слушать ${address}: нет прав (порты ниже 1024 требуют привилегий); выберите другой: ${flag} N`,
      },
      { cause: error },
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new LoreError(
      "invalid_input",
      {
        reason: `cannot listen on ${address}: ${host} is not an address of this machine; use --host 127.0.0.1`,
        reason_ru: `не удаётся слушать ${address}: ${host} — не адрес этой машины; укажите --host 127.0.0.1`,
      },
      { cause: error },
    );
  }
  return error;
}
