/**
 * What the team server's administration commands (`lore user|token|group|access|key|repo|
 * branch`) share: opening the server's records in the data folder (`[server] data`), the
 * subcommand word, and arguments that belong to one subcommand only.
 */
import { LoreError } from "../core/errors/lore-error.js";
import { nearestKey } from "../core/text/nearest-key.js";
import type { EntryIndex } from "../index/entry-index.js";
import type { AdminPort } from "../ports/admin-port.js";
import type { IndexStore } from "../ports/index-store.js";
import type { ServerStore } from "../ports/server-store.js";
import type { CliContext, CommandArgs } from "./command.js";

/**
 * Opens the server's store (`[server] database` on PostgreSQL, else `server.db` in the data
 * folder `[server] data`; `--config`), runs `work`, closes the store.
 *
 * @throws whatever `work` throws; LoreError `index_failed` when the database cannot be
 *   opened, `database_unavailable` when the PostgreSQL database cannot be reached.
 */
export async function withServerStore<T>(
  ctx: CliContext,
  work: (store: ServerStore, dataDir: string) => Promise<T>,
): Promise<T> {
  const { data: dataDir, database } = ctx.settings().server;
  const { openServerStore } = await import("../main/open-server.js");
  const store = await openServerStore(dataDir, database);
  try {
    return await work(store, dataDir);
  } finally {
    await store.close();
  }
}

/** The help lines that say where the administration commands work (see {@link adminMode}). */
export const ADMIN_MODES_HELP = [
  "Works on the team server's database ([server] database, a PostgreSQL URL, else server.db",
  "in the data folder [server] data of lore.toml; --config PATH picks the file), also while",
  "lore serve runs; or, when [server] url is set and this machine has neither (a client",
  "machine), over the server's API",
  "(/api/v1/admin/…) with LORE_TOKEN or [server] token of auth.toml: a site admin's token",
  "with the admin scope. The output is the same either way.",
] as const;

/** Where the administration commands work: the database here, or a team server's API. */
export type AdminMode = { kind: "local"; dataDir: string } | { kind: "remote"; url: string };

/**
 * Where `lore user|token|group|access|key|repo|branch` work: over the team server's API
 * when `[server] url` is configured and this machine holds no server database (no
 * `[server] database` URL, no `server.db` in `[server] data`: a client machine); else on
 * the database directly, as for set-up on the server machine (no server needs to run).
 */
export async function adminMode(ctx: CliContext): Promise<AdminMode> {
  const settings = ctx.settings();
  if (settings.server.url === undefined) return { kind: "local", dataDir: settings.server.data };
  const { hasServerStore } = await import("../main/open-server.js");
  return hasServerStore(settings.server.data, settings.server.database)
    ? { kind: "local", dataDir: settings.server.data }
    : { kind: "remote", url: settings.server.url };
}

/**
 * Runs `work` with the server's administration (see {@link adminMode}): over the API with
 * the token of `LORE_TOKEN` or `[server] token` in `auth.toml` (a site admin's, with the
 * `admin` scope), or on the database in the data folder, closed afterwards. A repository
 * created on the database gets Lore's push hooks at once.
 *
 * @throws whatever `work` throws; LoreError `server_not_configured` (a url but no token),
 *   `server_unreachable`, `forbidden` (the token may not administer), `index_failed` (the
 *   database cannot be opened).
 */
export async function withAdmin<T>(
  ctx: CliContext,
  work: (admin: AdminPort) => Promise<T>,
): Promise<T> {
  const mode = await adminMode(ctx);
  if (mode.kind === "remote") {
    const { configuredTeamClient, serverNotConfigured } = await import("../main/team-client.js");
    const { authFilePath } = await import("../main/load-forge.js");
    const { remoteAdmin } = await import("../adapters/team-server/remote-admin.js");
    const client = configuredTeamClient(ctx.settings(), process.env);
    // adminMode answered remote only with a url, so there is a client.
    if (client === null) throw serverNotConfigured("url", authFilePath(process.env));
    return work(remoteAdmin(client));
  }
  const { data: dataDir, database } = ctx.settings().server;
  const { hasServerStore } = await import("../main/open-server.js");
  if (hasServerStore(dataDir, database))
    return withServerStore(ctx, async (store) => work(await localAdmin(ctx, store, dataDir)));
  return withFirstWriteStore(ctx, dataDir, work);
}

/**
 * Runs `work` where this machine has no server database yet: what it lists is answered
 * from an empty store in memory — the answer an empty database gives — and the store in
 * the data folder is made only by the first change (`add`, `create`, `grant`…). A read
 * such as `lore user list` on a client machine so leaves no `server.db` behind, which
 * would later make the commands work here instead of over `[server] url` (see
 * {@link adminMode}).
 */
async function withFirstWriteStore<T>(
  ctx: CliContext,
  dataDir: string,
  work: (admin: AdminPort) => Promise<T>,
): Promise<T> {
  const stores: ServerStore[] = [];
  let real: AdminPort | undefined;
  let empty: AdminPort | undefined;
  const openReal = async (): Promise<AdminPort> => {
    if (real !== undefined) return real;
    const { openServerStore } = await import("../main/open-server.js");
    const store = await openServerStore(dataDir, ctx.settings().server.database);
    stores.push(store);
    real = await localAdmin(ctx, store, dataDir);
    return real;
  };
  const openEmpty = async (): Promise<AdminPort> => {
    if (empty !== undefined) return empty;
    const { openSqliteServerStore } = await import("../index/server-store/sqlite-server-store.js");
    const store = openSqliteServerStore(":memory:");
    stores.push(store);
    empty = await localAdmin(ctx, store, dataDir);
    return empty;
  };
  // Every method of the port returns a promise: the proxy picks the store per call, by the
  // method's name (the port's reads are all named `list…`).
  const admin = new Proxy({} as AdminPort, {
    get: (_target, name) => {
      if (typeof name !== "string") return undefined;
      return async (...args: unknown[]) => {
        const reads = name.startsWith("list") && real === undefined;
        const port = reads ? await openEmpty() : await openReal();
        // The port's methods take different arguments; each is called as the caller called it.
        const method = (port as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
          name
        ];
        if (method === undefined) throw new TypeError(`no administration method ${name}`);
        return method.apply(port, args);
      };
    },
  });
  try {
    return await work(admin);
  } finally {
    for (const store of stores) await store.close();
  }
}

/** The administration on the server's store here (see {@link withAdmin}). */
async function localAdmin(
  ctx: CliContext,
  store: ServerStore,
  dataDir: string,
): Promise<AdminPort> {
  const { createLocalAdmin } = await import("../main/local-admin.js");
  const afterCreateRepo = async (dir: string) => {
    const { hookInstallOptions } = await import("../main/compose-hook.js");
    const { installHooks } = await import("../services/push/install-hooks.js");
    // Lore's pre-receive and post-receive go in at once: every push is parsed.
    const { serverIndexFile } = await import("../main/server-index-file.js");
    const settings = ctx.settings();
    await installHooks(
      dir,
      hookInstallOptions({ ...settings, database: serverIndexFile(settings) }, dataDir),
    );
  };
  // The server's index (the same file `lore serve` reads) forgets what is removed.
  const withIndex = async (change: (index: EntryIndex) => void) => {
    const { openIndex } = await import("../index/entry-index.js");
    const { serverIndexFile } = await import("../main/server-index-file.js");
    const index = openIndex(serverIndexFile(ctx.settings()));
    try {
      change(index);
    } finally {
      index.close();
    }
  };
  // With `[server] database` the counters, load receipts and drafts are PostgreSQL's
  // (`openSharedIndexStore`): forgotten there too.
  const withShared = async (forget: (shared: IndexStore) => Promise<void>) => {
    const { openSharedIndexStore } = await import("../main/open-server.js");
    const shared = await openSharedIndexStore(ctx.settings().server.database);
    if (shared === undefined) return;
    try {
      await forget(shared);
    } finally {
      await shared.close();
    }
  };
  return createLocalAdmin({
    store,
    dataDir,
    afterCreateRepo,
    beforeRemoveRepo: async (fullName) => {
      await withIndex((index) => index.forgetHostedRepository(fullName));
      await withShared(async ({ counters, receipts, drafts }) => {
        await counters.forgetRepo(fullName);
        await receipts.forgetRepo(fullName);
        await drafts?.forgetRepo(fullName);
      });
    },
    afterRemoveUser: async (name) => {
      await withIndex((index) => index.forgetUserCounters(name));
      await withShared(async ({ counters, receipts }) => {
        await counters.forgetUser(name);
        await receipts.forgetUser(name);
      });
    },
  });
}

/** Writes one line in the message language. */
export function say(ctx: CliContext, en: string, ru: string): void {
  ctx.out(ctx.lang === "ru" ? ru : en);
}

/** A usage refusal quoting the command's usage lines. */
export function usageError(
  usage: readonly string[],
  detail?: { en: string; ru: string },
): LoreError {
  const lines = usage.join(" | ");
  return new LoreError("invalid_input", {
    reason: `${detail === undefined ? "" : `${detail.en}; `}usage: ${lines}`,
    reason_ru: `${detail === undefined ? "" : `${detail.ru}; `}использование: ${lines}`,
  });
}

/**
 * Takes the subcommand word off the positionals (`lore user add anna` → `add`, `[anna]`).
 *
 * @throws LoreError `invalid_input` for a missing or unknown one, naming the nearest.
 */
export function takeSubcommand(
  args: CommandArgs,
  known: readonly string[],
  usage: readonly string[],
): { sub: string; rest: string[] } {
  const [sub, ...rest] = args.positionals;
  if (sub === undefined) throw usageError(usage);
  if (!known.includes(sub)) {
    const near = nearestKey(sub, known);
    throw usageError(usage, {
      en: `unknown subcommand “${sub}”${near === undefined ? "" : `; did you mean “${near}”?`}`,
      ru: `неизвестная подкоманда «${sub}»${near === undefined ? "" : `; может быть, «${near}»?`}`,
    });
  }
  return { sub, rest };
}

/**
 * Checks the positionals of a subcommand: exactly `min`…`max` of them.
 *
 * @throws LoreError `invalid_input` with the usage.
 */
export function expectPositionals(
  rest: readonly string[],
  min: number,
  max: number,
  usage: readonly string[],
): void {
  if (rest.length < min)
    throw usageError(usage, { en: "missing argument", ru: "не хватает аргумента" });
  if (rest.length > max) {
    const extra = rest.slice(max).join(" ");
    throw usageError(usage, {
      en: `unexpected argument(s) “${extra}”`,
      ru: `лишние аргументы «${extra}»`,
    });
  }
}

/**
 * Refuses options given to a subcommand that does not take them (`lore user list --admin`).
 *
 * @param allowed - the options this subcommand takes (besides `--help` and `--config`).
 * @throws LoreError `invalid_input`.
 */
export function onlyOptions(args: CommandArgs, allowed: readonly string[], what: string): void {
  for (const [name, value] of Object.entries(args.values)) {
    if (value === undefined || name === "config" || name === "help" || allowed.includes(name))
      continue;
    throw new LoreError("invalid_input", {
      reason: `--${name} is not an option of lore ${what} (see lore ${what.split(" ")[0]} --help)`,
      reason_ru: `--${name} — не параметр lore ${what} (см. lore ${what.split(" ")[0]} --help)`,
    });
  }
}

/** A time for lists: ISO 8601 in UTC to the second, or `never`. */
export function formatTime(ms: number | null, lang: CliContext["lang"]): string {
  if (ms === null) return lang === "ru" ? "никогда" : "never";
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
