import type { ParseArgsConfig } from "node:util";
import type { Lang } from "../core/errors/localized-text.js";
import type { Lore } from "../main/compose.js";
import type { LoreSettings } from "../main/load-config.js";

/** What a command may use: output streams, settings and the composed Lore, all lazy. */
export interface CliContext {
  /** The working folder. */
  cwd: string;
  /** Message language (from the environment, then the configuration once it is read). */
  lang: Lang;
  /** The package version. */
  version: string;
  /** Writes a line (a newline is added) to stdout. */
  out(text: string): void;
  /** Writes a line (a newline is added) to stderr. */
  err(text: string): void;
  /** Writes raw text to stderr (progress lines that redraw with `\r`). */
  errRaw(text: string): void;
  /** Writes text to stdout as is, no newline added (a file's bytes, `lore get`). */
  outRaw?(text: string): void;
  /** True when stderr is a terminal (progress redraws in place). */
  errIsTTY: boolean;
  /** Reads the configuration once (`--config`, `LORE_CONFIG`, `./lore.toml`, XDG). */
  settings(): LoreSettings;
  /** Composes Lore (opens the index) once; the CLI closes it when the command ends. */
  openLore(): Promise<Lore>;
}

/** Parsed command-line values: option values by name, and the positionals. */
export interface CommandArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** One `lore` command: its options for `node:util` `parseArgs`, its help, and its run. */
export interface Command {
  /** The command word, e.g. `recall`. */
  name: string;
  /** One line for `lore --help`. */
  summary: string;
  /** The full `lore <name> --help` text (usage line, options, exit codes). */
  help: string;
  /** Options besides `--help` and `--config`, which every command takes. */
  options: NonNullable<ParseArgsConfig["options"]>;
  /**
   * Runs the command.
   * @returns the exit code (see `exit-codes.ts`).
   * @throws LoreError; the CLI prints it and exits with the code of its kind.
   */
  run(ctx: CliContext, args: CommandArgs): Promise<number>;
}
