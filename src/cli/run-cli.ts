import { readFileSync } from "node:fs";
import type { Lang } from "../core/errors/localized-text.js";
import { pickLang } from "../core/errors/localized-text.js";
import { nearestKey } from "../core/text/nearest-key.js";
import type { Lore } from "../main/compose.js";
import type { LoreSettings } from "../main/load-config.js";
import { parseCommandArgs } from "./args.js";
import type { CliContext } from "./command.js";
import { COMMANDS } from "./command-list.js";
import { EXIT_CODES } from "./exit-codes.js";
import { describeError } from "./print-error.js";

export { COMMANDS } from "./command-list.js";

/** The output streams and working folder the CLI runs with. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  cwd: string;
}

/** The package version, from `package.json` beside `dist/` (or `src/`). */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return (JSON.parse(text) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

function mainHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`);
  return [
    `lore ${version} — git-native knowledge for coding agents`,
    "",
    "Usage: lore <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Every command takes --help and --config PATH. Read commands take --json.",
    "Exit codes: 0 ok, 1 internal error, 2 invalid input, 3 not found, 4 conflict,",
    "5 forbidden (a read-only root, the forge refused the token), 6 unavailable (the forge,",
    "or a federation feature that is not configured), 7 `lore check` found wrong files.",
  ].join("\n");
}

/**
 * The `--config PATH` (or `--config=PATH`) of raw arguments, read before they are parsed so
 * that a refusal of the arguments themselves is still said in the configured language.
 *
 * @param args - the arguments after the command word.
 * @returns the path, or undefined when none is given.
 */
function configOptionOf(args: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") break;
    if (arg === "--config" && args[i + 1] !== undefined) found = args[++i];
    else if (arg.startsWith("--config=")) found = arg.slice("--config=".length);
  }
  return found;
}

/**
 * Runs the `lore` command line: picks the command, parses its options with `node:util`
 * `parseArgs`, runs it, prints a refusal as `lore: <message> [code]` on stderr in the chosen
 * language and returns the exit code of its kind (`exit-codes.ts`).
 *
 * @param argv - the arguments after `node main.js`.
 * @param io - output streams and working folder.
 * @returns the exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const version = packageVersion();
  let lang: Lang = pickLang(process.env);
  const out = (text: string) => void io.stdout.write(`${text}\n`);
  const err = (text: string) => void io.stderr.write(`${text}\n`);
  const [name, ...rest] = configFirst(argv);
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const target = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    out(target ? (await target.load()).help : mainHelp(version));
    return EXIT_CODES.ok;
  }
  if (name === "--version" || name === "-v") {
    out(version);
    return EXIT_CODES.ok;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    err(unknownCommandText(name, lang, rest));
    return EXIT_CODES.invalid_input;
  }
  const command = await entry.load();
  // Settings are read once a command is known to run; the file reader only when a file exists.
  const { loadConfigReader, loadSettings, needsConfigReader } = await import(
    "../main/load-config.js"
  );
  const settingsOptions = () =>
    configPath === undefined ? { cwd: io.cwd } : { cwd: io.cwd, configPath };
  // The file reader (zod, smol-toml) is loaded only when a configuration file exists.
  const prepareSettings = async () => {
    if (!settings && needsConfigReader(settingsOptions())) await loadConfigReader();
  };
  let settings: LoreSettings | undefined;
  let lore: Lore | undefined;
  let configPath: string | undefined;
  const ctx: CliContext = {
    cwd: io.cwd,
    get lang() {
      return lang;
    },
    version,
    out,
    err,
    errRaw: (text) => void io.stderr.write(text),
    outRaw: (text) => void io.stdout.write(text),
    errIsTTY: io.stderr.isTTY === true,
    settings() {
      if (!settings) {
        settings = loadSettings(settingsOptions());
        lang = settings.lang;
        // Keys of an untrusted project file were not applied: say so, never silently.
        for (const notice of settings.notices ?? [])
          err(`lore: ${notice.text[lang]} [${notice.code}]`);
      }
      return settings;
    },
    async openLore() {
      if (!lore) {
        // Loaded on demand: `lore --version`, `check` and `new` need no index or git.
        const { composeLore } = await import("../main/compose.js");
        lore = await composeLore(ctx.settings(), { log: err });
      }
      return lore;
    },
  };
  configPath = configOptionOf(rest);
  try {
    const args = parseCommandArgs(
      rest,
      { ...command.options, help: { type: "boolean", short: "h" }, config: { type: "string" } },
      command.name,
    );
    if (args.values.help === true) {
      out(command.help);
      return EXIT_CODES.ok;
    }
    if (typeof args.values.config === "string") configPath = args.values.config;
    await prepareSettings();
    return await command.run(ctx, args);
  } catch (error) {
    // An argument error comes before the configuration is read: read it now for its `lang`.
    if (!settings) {
      try {
        await prepareSettings();
        ctx.settings();
      } catch {
        // An unreadable configuration keeps the language of the environment.
      }
    }
    const described = describeError(error, lang);
    err(described.line);
    return described.exitCode;
  } finally {
    await lore?.close();
  }
}

/**
 * The arguments with a leading `--config PATH` (or `--config=PATH`) moved after the command
 * name: every command takes it, and `lore --config team.toml serve` is how many tools put a
 * global option (git's `-c`, kubectl's `--kubeconfig`).
 *
 * @param argv - the arguments after `node main.js`.
 * @returns `argv` itself, or `[command, "--config", PATH, ...rest]`.
 */
function configFirst(argv: readonly string[]): readonly string[] {
  const [first, second, ...rest] = argv;
  if (first === "--config" && second !== undefined && rest[0] !== undefined)
    return [rest[0], "--config", second, ...rest.slice(1)];
  if (first?.startsWith("--config=") === true && second !== undefined)
    return [second, first, ...rest];
  return argv;
}

/**
 * The refusal of an unknown first argument, with the nearest command — or, for one with a
 * leading dash (`--versoin`), the nearest top-level option (`--version`, `--help`).
 */
function unknownCommandText(name: string, lang: Lang, rest: readonly string[]): string {
  const later = rest.find((arg) => COMMANDS.some((c) => c.name === arg));
  if (name.startsWith("-") && later !== undefined) {
    // `lore --json recall x`: the command's own options follow its name.
    return lang === "ru"
      ? `lore: параметры команды пишутся после её имени: lore ${later} ${name} … [invalid_input]`
      : `lore: a command's options go after its name: lore ${later} ${name} … [invalid_input]`;
  }
  if (name.startsWith("-")) {
    const near = nearestKey(name, ["--help", "--version"]);
    return lang === "ru"
      ? `lore: «${name}» — не параметр lore${near ? `; может быть, «${near}»? Список` : "; список"}: lore --help [invalid_input]`
      : `lore: “${name}” is not an option of lore${near ? `; did you mean “${near}”? See` : "; see"} lore --help [invalid_input]`;
  }
  const near = nearestKey(
    name,
    COMMANDS.map((c) => c.name),
  );
  return lang === "ru"
    ? `lore: неизвестная команда «${name}»${near ? `; может быть, «lore ${near}»? Список: lore --help` : "; список: lore --help"} [invalid_input]`
    : `lore: unknown command “${name}”${near ? `; did you mean “lore ${near}”? See lore --help` : "; see lore --help"} [invalid_input]`;
}
