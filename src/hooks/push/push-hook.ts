/**
 * The git push hooks' process (seed 004, "Разбор при отправке"): `lore hook pre-receive` /
 * `lore hook post-receive`, run by git through the scripts `lore hook install` writes
 * (`core/push/hook-script.ts`), with git's ref updates on stdin and the report going back
 * to the pusher as `remote:` lines on stderr.
 *
 * Both ways into it run {@link runPushHook}: the `hook` command of the full CLI
 * (`cli/commands/hook.ts`), and {@link runPushHookProcess}, which `src/cli/main.ts` branches
 * to before the command table loads when the arguments have exactly the shape the scripts
 * write ({@link pushHookArgs}). A hook is a whole process per push and per hook, so its
 * start-up is on every push's path; the early branch loads only this module's graph, and
 * the build bundles that graph (`src/build/bundle-push-hook.ts`) so it loads as a few
 * files rather than ~100 modules. Any other shape (`--config`, `--help`, an unknown
 * option) goes through the full CLI, which answers it as before.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Lang } from "../../core/errors/localized-text.js";
import { pickLang } from "../../core/errors/localized-text.js";
import {
  LORE_HOOKS,
  type LoreHook,
  PROTECTED_MARKER,
  REFUSED_EXIT_CODE,
} from "../../core/push/hook-script.js";
import { pusherLang } from "../../core/push/pusher-lang.js";
import type { LoreSettings } from "../../main/load-config.js";
import { readAll, writeLines } from "../hook-io.js";

/** What a push hook is run with: its options, as the hook scripts pass them. */
export interface PushHookOptions {
  /** `--data D`: the server's data folder; absent = `[server] data`. */
  data?: string;
  /** `--name owner/name`: the repository's index name; absent = from the folder. */
  name?: string;
}

/** The context of one push hook run. */
export interface PushHookIo {
  /** Git's input (`<old> <new> <ref>` lines). */
  stdin: NodeJS.ReadableStream;
  /** Where the report goes (git shows it as `remote:` lines). */
  stderr: NodeJS.WritableStream;
  /** The hook's environment (`LORE_DB`, `LORE_CONFIG`, `GIT_DIR`, the quarantine). */
  env: Readonly<Record<string, string | undefined>>;
  /** The working folder (git runs a hook in the bare repository). */
  cwd: string;
  /**
   * Reads the settings once (the CLI's `ctx.settings()`).
   * @throws LoreError `config_invalid` and the like; the hook reports and accepts the push.
   */
  settings(): LoreSettings;
  /** The message language now (the environment's, then the configuration's once read). */
  lang(): Lang;
}

/**
 * Runs a hook as git calls it: never fails the push but by branch protection (a broken
 * configuration, an unreadable index: a line for the pusher, exit 0). In a repository with
 * protected branches (its `PROTECTED_MARKER`), a `pre-receive` that fails before it could
 * check the rules refuses instead (`branch_protected`): protection fails closed.
 *
 * @param hook - `pre-receive` or `post-receive`.
 * @param options - see {@link PushHookOptions}.
 * @param io - see {@link PushHookIo}.
 * @returns 0, or `REFUSED_EXIT_CODE` (5) when branch protection refuses the push.
 */
export async function runPushHook(
  hook: LoreHook,
  options: PushHookOptions,
  io: PushHookIo,
): Promise<number> {
  const input = await readAll(io.stdin);
  let lines: string[];
  let exitCode = 0;
  try {
    const settings = io.settings();
    const { runHook } = await import("../../main/compose-hook.js");
    const gitDir = io.env.GIT_DIR;
    const outcome = await runHook({
      hook,
      dir: resolve(io.cwd, gitDir ?? "."),
      data: resolve(options.data ?? settings.server.data),
      database: resolve(settings.database),
      ...(settings.server.database === undefined
        ? {}
        : { serverDatabase: settings.server.database }),
      ...(options.name === undefined ? {} : { name: options.name }),
      lang: io.lang(),
      env: io.env,
      input,
    });
    lines = outcome.lines;
    exitCode = outcome.exitCode;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const dir = resolve(io.cwd, io.env.GIT_DIR ?? ".");
    if (hook === "pre-receive" && existsSync(join(dir, PROTECTED_MARKER))) {
      lines = [
        io.lang() === "ru"
          ? `lore: pre-receive не сработал, а в репозитории есть защищённые ветки; отправка отклонена: ${reason} [branch_protected]`
          : `lore: pre-receive failed and the repository has protected branches; the push is refused: ${reason} [branch_protected]`,
      ];
      exitCode = REFUSED_EXIT_CODE;
    } else {
      lines = [
        io.lang() === "ru"
          ? `lore: ${hook} не сработал, отправка принята: ${reason}`
          : `lore: ${hook} failed, the push is accepted: ${reason}`,
      ];
    }
  }
  await writeLines(io.stderr, lines);
  return exitCode;
}

/** The arguments of a push hook in the shape Lore's scripts write them. */
export interface PushHookArgs extends PushHookOptions {
  hook: LoreHook;
}

/**
 * The arguments after `main.js` when they are exactly what a hook script passes: `hook
 * pre-receive|post-receive` followed by `--data <value>` and `--name <value>` (each at most
 * once, values not starting with `-`). Pure.
 *
 * @param argv - `process.argv.slice(2)`.
 * @returns the hook and its options, or `undefined` for anything else (the full CLI runs).
 */
export function pushHookArgs(argv: readonly string[]): PushHookArgs | undefined {
  const [word, hook, ...rest] = argv;
  if (word !== "hook" || !(LORE_HOOKS as readonly (string | undefined)[]).includes(hook)) {
    return undefined;
  }
  const out: PushHookArgs = { hook: hook as LoreHook };
  if (rest.length % 2 !== 0) return undefined;
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i];
    const value = rest[i + 1] as string;
    if (value.startsWith("-")) return undefined;
    if (flag === "--data" && out.data === undefined) out.data = value;
    else if (flag === "--name" && out.name === undefined) out.name = value;
    else return undefined;
  }
  return out;
}

/**
 * The early branch's run (see the module header): settings read as the CLI reads them
 * (the environment's language first; the configuration file's reader loaded only when a
 * file exists; its notices said on stderr), then {@link runPushHook}.
 *
 * @param args - from {@link pushHookArgs}.
 * @param io - the process's streams, environment and working folder.
 * @returns the exit code.
 */
export async function runPushHookProcess(
  args: PushHookArgs,
  io: Omit<PushHookIo, "settings" | "lang">,
): Promise<number> {
  const { loadConfigReader, loadSettings, needsConfigReader } = await import(
    "../../main/load-config.js"
  );
  // The pusher's own language, when the server passed it, wins over the configured one.
  const pusher = pusherLang(io.env);
  let lang: Lang = pusher ?? pickLang(io.env);
  let settings: LoreSettings | undefined;
  try {
    if (needsConfigReader({ cwd: io.cwd })) await loadConfigReader();
  } catch (error) {
    // As the CLI: a reader that cannot be loaded is said as the CLI says any failure.
    const { describeError } = await import("../../cli/print-error.js");
    const described = describeError(error, lang);
    await writeLines(io.stderr, [described.line]);
    return described.exitCode;
  }
  return runPushHook(args.hook, args, {
    ...io,
    settings() {
      if (settings === undefined) {
        settings = loadSettings({ cwd: io.cwd });
        lang = pusher ?? settings.lang;
        for (const notice of settings.notices ?? []) {
          io.stderr.write(`lore: ${notice.text[lang]} [${notice.code}]\n`);
        }
      }
      return settings;
    },
    lang: () => lang,
  });
}
