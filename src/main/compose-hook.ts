/**
 * The composition of Lore's git hooks (seed 004, "Разбор при отправке"): binds the push
 * services to the git CLI, the index file and the server's store, for `lore hook
 * pre-receive` / `lore hook post-receive` (see `hooks/`). Never throws: a failure of the
 * parse or of the index update is logged (a stderr line for the pusher and a line in
 * `<data>/logs/hooks.log`) and the push goes through; branch protection is the only refusal.
 */
import { existsSync, mkdirSync } from "node:fs";
import { appendFile, mkdir } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { PushGitRepo } from "../adapters/git-cli/push-git-repo.js";
import type { Lang } from "../core/errors/localized-text.js";
import { isLoreError } from "../core/errors/lore-error.js";
import { hookReadEnvironment, INDEXED_BY_SERVER_ENV } from "../core/push/hook-environment.js";
import {
  type HookScriptOptions,
  type LoreHook,
  PROTECTED_MARKER,
  REFUSED_EXIT_CODE,
} from "../core/push/hook-script.js";
import { parseRefUpdates } from "../core/push/ref-update.js";
import { useSnowballLoader } from "../core/text/stem.js";
import { type EntryIndex, openIndex } from "../index/entry-index.js";
import { openIdOwnerIndex } from "../index/id-owner-lookup.js";
import type { ServerStore } from "../ports/server-store.js";
import { type HealDeps, PUSH_LOCK_WAIT_MS } from "../services/push/heal-index.js";
import { postReceive } from "../services/push/post-receive.js";
import { preReceive } from "../services/push/pre-receive.js";
import { warmUpSecretScanner } from "../services/safety/scan-secrets.js";
import type { LoreSettings } from "./load-config.js";
import { hasServerStore, openServerStore } from "./open-server.js";
import { loadSnowballWithCodeCache, snowballCacheFile } from "./snowball-code-cache.js";

/** One run of a hook. */
export interface HookRun {
  hook: LoreHook;
  /** The bare repository the hook runs in (`GIT_DIR`, else the working folder). */
  dir: string;
  /** The server's data folder (`--data`): the store (`server.db`), the log. */
  data: string;
  /** The index file (`LORE_DB`). */
  database: string;
  /** `[server] database`: the server store on PostgreSQL; absent = `<data>/server.db`. */
  serverDatabase?: string;
  /** The repository's index name; default: from the folder (see {@link repoNameOf}). */
  name?: string;
  /** The language of the report and messages. */
  lang: Lang;
  /** The hook's environment (`process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Git's stdin: `<old> <new> <ref>` lines. */
  input: string;
}

/** What the hook edge prints and exits with. */
export interface HookOutcome {
  /** 0, or `REFUSED_EXIT_CODE` (5) when branch protection refuses the push (`pre-receive` only). */
  exitCode: number;
  /** Lines for stderr (git shows them to the pusher as `remote:` lines). */
  lines: string[];
}

/**
 * The repository's index name: `owner/name` for a folder `<data>/repos/<owner>/<name>.git`
 * (a repository hosted by `lore serve`), else the folder's last two parts without `.git`
 * (Gitea's and GitLab's `<owner>/<name>.git` layout).
 *
 * @param dir - the bare repository (absolute).
 * @param data - the data folder.
 */
export function repoNameOf(dir: string, data: string): string {
  const strip = (name: string) => (name.endsWith(".git") ? name.slice(0, -4) : name);
  const inside = relative(join(data, "repos"), dir);
  if (!inside.startsWith("..") && !isAbsolute(inside) && inside.split(sep).length === 2) {
    const [owner = "", name = ""] = inside.split(sep);
    return `${owner}/${strip(name)}`;
  }
  return `${basename(dirname(dir))}/${strip(basename(dir))}`;
}

/**
 * What a heal of a hosted repository needs, over the git CLI (for the server's reads: the
 * lead's composition passes its writer connection).
 *
 * @param index - the connection written through.
 * @param log - where a heal's line goes.
 * @param lang - the report language.
 * @param oneShot - true in a hook process, which does nothing else meanwhile: blobs are read
 *   in synchronous batches (`PushGitRepoOptions.blobsAtOnce`). Default: false (a server).
 */
export function hostedHealDeps(
  index: EntryIndex,
  log?: (line: string) => void,
  lang: Lang = "en",
  oneShot = false,
): HealDeps {
  return {
    index,
    // The push's diff kept by pre-receive (`diff-memo.ts`) spares a second `diff-tree`.
    openRepo: (dir) => new PushGitRepo(dir, { diffMemo: "take", blobsAtOnce: oneShot }),
    lang,
    ...(log === undefined ? {} : { log }),
  };
}

/**
 * What Lore's hook scripts embed for these settings (for `installHooks` at `lore repo
 * create`, the re-check at `lore serve` start, and `lore hook install`): this `node`
 * (`process.execPath`), this Lore's `dist/cli/main.js`, the index file, the data folder and
 * the configuration file, all absolute.
 *
 * @param settings - the loaded settings.
 * @param data - the data folder; default `[server] data`.
 */
export function hookInstallOptions(settings: LoreSettings, data?: string): HookScriptOptions {
  return {
    node: process.execPath,
    main: fileURLToPath(new URL("../cli/main.js", import.meta.url)),
    database: resolve(settings.database),
    data: resolve(data ?? settings.server.data),
    config: settings.configPath === null ? null : resolve(settings.configPath),
  };
}

/**
 * Runs one hook (see the module header).
 *
 * @param run - see {@link HookRun}.
 * @returns the exit code and the lines to print.
 */
export async function runHook(run: HookRun): Promise<HookOutcome> {
  const updates = parseRefUpdates(run.input);
  const name = run.name ?? repoNameOf(run.dir, run.data);
  const lines: string[] = [];
  const failed = async (what: string, error: unknown) => {
    const reason = isLoreError(error)
      ? `${error.text[run.lang]} [${error.code}]`
      : error instanceof Error
        ? error.message
        : String(error);
    lines.push(
      run.lang === "ru"
        ? `lore: ${what} не удался, отправка принята (записано в журнал): ${reason}`
        : `lore: ${what} failed, the push is accepted (logged): ${reason}`,
    );
    await log(run, `${run.hook} ${name}: ${what}: ${reason}`);
  };
  let store: ServerStore | undefined;
  try {
    if (hasServerStore(run.data, run.serverDatabase))
      store = await openServerStore(run.data, run.serverDatabase);
  } catch (error) {
    if (run.hook === "pre-receive") {
      // Protection fails closed: rules that cannot be read do not let a push through.
      const reason = error instanceof Error ? error.message : String(error);
      await log(run, `pre-receive ${name}: the server store cannot be read: ${reason}`);
      return {
        exitCode: REFUSED_EXIT_CODE,
        lines: [
          run.lang === "ru"
            ? `lore: правила защиты веток не удалось прочитать: ${reason} [branch_protected]`
            : `lore: the branch protection rules cannot be read: ${reason} [branch_protected]`,
        ],
      };
    }
    await failed(run.lang === "ru" ? "доступ к базе сервера" : "opening the server store", error);
  }
  if (
    run.hook === "pre-receive" &&
    store === undefined &&
    existsSync(join(run.dir, PROTECTED_MARKER))
  ) {
    // The repository has protected branches (its marker) but no store holds their rules.
    await log(run, `pre-receive ${name}: protected, and no server store at ${run.data}`);
    return {
      exitCode: REFUSED_EXIT_CODE,
      lines: [
        run.lang === "ru"
          ? `lore: в репозитории есть защищённые ветки, а базы сервера нет в ${run.data}; отправка отклонена [branch_protected]`
          : `lore: the repository has protected branches but there is no server store in ${run.data}; the push is refused [branch_protected]`,
      ],
    };
  }
  try {
    const defaultBranch = async (repo: PushGitRepo) =>
      (await store?.getRepo(name))?.defaultBranch ?? (await repo.headBranch()) ?? "main";
    if (run.hook === "pre-receive") {
      const repo = new PushGitRepo(run.dir, {
        env: hookReadEnvironment(run.env),
        diffMemo: "keep",
        blobsAtOnce: true,
      });
      const index = openIdOwnerIndex(run.database);
      try {
        const pusher = run.env.LORE_PUSHER;
        const result = await preReceive(
          {
            repo,
            ...(index === undefined ? {} : { index }),
            ...(store === undefined ? {} : { store }),
            repoName: name,
            defaultBranch: await defaultBranch(repo),
            ...(pusher === undefined ? {} : { pusher }),
            lang: run.lang,
            warmUp: warmUpSecretScanner,
          },
          updates,
        );
        if (result.refusal !== undefined) {
          const refusal = result.refusal;
          await log(run, `pre-receive ${name}: refused: ${refusal.text.en}`);
          return {
            exitCode: REFUSED_EXIT_CODE,
            lines: [`lore: ${refusal.text[run.lang]} [${refusal.code}]`],
          };
        }
        lines.push(...result.lines);
        for (const failure of result.failures) {
          await failed(
            run.lang === "ru" ? `разбор ${failure.ref}` : `the parse of ${failure.ref}`,
            failure.error,
          );
        }
      } catch (error) {
        await failed(run.lang === "ru" ? "разбор" : "the parse", error);
      } finally {
        index?.close();
        await repo.close();
      }
      return { exitCode: 0, lines };
    }
    // Under `lore serve` the server indexes the push itself (see INDEXED_BY_SERVER_ENV).
    if (run.env[INDEXED_BY_SERVER_ENV] === "1") return { exitCode: 0, lines };
    // A push's new words are stemmed with Snowball; its compiled code is kept between
    // processes, as the CLI's (snowball-code-cache.ts): ~20 ms of CPU less per such hook.
    const stemCache = snowballCacheFile(run.env);
    useSnowballLoader(() => loadSnowballWithCodeCache(stemCache));
    let index: EntryIndex | undefined;
    try {
      mkdirSync(dirname(run.database), { recursive: true });
      // The push waits for the index's write lock (a `lore index`, another push's heal) at
      // most PUSH_LOCK_WAIT_MS, and not at all when it changed no knowledge file; past it,
      // the push is accepted and the next read or push heals (seed 004).
      index = openIndex(run.database, { busyTimeoutMs: PUSH_LOCK_WAIT_MS });
      const probe = new PushGitRepo(run.dir);
      const branch = await defaultBranch(probe).finally(() => probe.close());
      await postReceive(
        {
          ...hostedHealDeps(index, undefined, run.lang, true),
          lockWaitMs: PUSH_LOCK_WAIT_MS,
          deferUnchanged: true,
        },
        { fullName: name, dir: resolve(run.dir), defaultBranch: branch },
        updates,
      );
    } catch (error) {
      await failed(run.lang === "ru" ? "обновление указателя" : "the index update", error);
    } finally {
      index?.close();
    }
    return { exitCode: 0, lines };
  } finally {
    await store?.close();
  }
}

/** Appends one line to `<data>/logs/hooks.log`; a log that cannot be written is skipped. */
async function log(run: HookRun, line: string): Promise<void> {
  try {
    const folder = join(run.data, "logs");
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await appendFile(join(folder, "hooks.log"), `${new Date().toISOString()} ${line}\n`, {
      mode: 0o600,
    });
  } catch {
    // The stderr line still reaches the pusher.
  }
}
