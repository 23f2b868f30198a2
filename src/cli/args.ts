import { type ParseArgsConfig, parseArgs } from "node:util";
import { LoreError } from "../core/errors/lore-error.js";
import { nearestKey } from "../core/text/nearest-key.js";
import type { CommandArgs } from "./command.js";

/**
 * A string option's value, or undefined when absent.
 *
 * @param args - parsed arguments.
 * @param name - option name.
 */
export function stringOption(args: CommandArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * A repeatable string option's values (empty when absent).
 *
 * @param args - parsed arguments.
 * @param name - option name.
 */
export function listOption(args: CommandArgs, name: string): string[] {
  const value = args.values[name];
  if (Array.isArray(value)) return value;
  return typeof value === "string" ? [value] : [];
}

/**
 * A boolean flag's value.
 *
 * @param args - parsed arguments.
 * @param name - option name.
 */
export function flag(args: CommandArgs, name: string): boolean {
  return args.values[name] === true;
}

/**
 * A whole-number option, checked against a range.
 *
 * @param args - parsed arguments.
 * @param name - option name.
 * @param range - inclusive bounds.
 * @throws LoreError `invalid_input` when the value is not a whole number in the range;
 *   `invalid_limit` for `--limit` (from 1), as the MCP tools answer.
 */
export function intOption(
  args: CommandArgs,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  const raw = stringOption(args, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < range.min || value > range.max) {
    // A page size is refused with the code the MCP tools use for it (README, error codes).
    if (name === "limit" && range.min === 1)
      throw new LoreError("invalid_limit", { max: range.max });
    throw new LoreError("invalid_input", {
      reason: `--${name} must be a whole number from ${range.min} to ${range.max}, not “${raw}”`,
      reason_ru: `--${name} должен быть целым числом от ${range.min} до ${range.max}, а не «${raw}»`,
    });
  }
  return value;
}

/**
 * Refuses extra positionals.
 *
 * @param args - parsed arguments.
 * @param max - how many the command takes.
 * @param usage - the usage line to quote.
 * @throws LoreError `invalid_input`.
 */
export function atMostPositionals(args: CommandArgs, max: number, usage: string): void {
  if (args.positionals.length > max) {
    const extra = args.positionals.slice(max).join(" ");
    throw new LoreError("invalid_input", {
      reason: `unexpected argument(s) “${extra}”; usage: ${usage}`,
      reason_ru: `лишние аргументы «${extra}»; использование: ${usage}`,
    });
  }
}

/**
 * Prints a value as JSON (two-space indent) through `out`.
 *
 * @param out - the line writer.
 * @param value - any JSON-serialisable value.
 */
export function printJson(out: (text: string) => void, value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** The option table of `node:util` `parseArgs`. */
type OptionTable = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses a command's arguments like `parseArgs` in strict mode, but refuses each mistake
 * with a LoreError in both languages (the configured one is printed), naming the nearest
 * known option for an unknown one.
 *
 * @param args - the arguments after the command word.
 * @param options - the command's options (with `--help` and `--config`).
 * @returns the values and positionals.
 * @throws LoreError `invalid_input`: an unknown option (“--jsn” is not an option of
 *   `lore recall`; did you mean “--json”?), a string option without a value, a value given
 *   to a flag.
 */
export function parseCommandArgs(
  args: readonly string[],
  options: OptionTable,
  command: string,
): CommandArgs {
  const parsed = parseArgs({
    args: [...args],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== "option") continue;
    const spec = options[token.name];
    if (spec === undefined) {
      const nearest = token.rawName.startsWith("--")
        ? nearestKey(token.name, Object.keys(options))
        : undefined;
      throw new LoreError("invalid_input", {
        reason: `“${token.rawName}” is not an option of lore ${command}${nearest ? `; did you mean “--${nearest}”?` : ""} (see lore ${command} --help)`,
        reason_ru: `«${token.rawName}» — не параметр lore ${command}${nearest ? `; может быть, «--${nearest}»?` : ""} (см. lore ${command} --help)`,
      });
    }
    const value = token.value;
    if (
      spec.type === "string" &&
      (value === undefined || (!token.inlineValue && value.startsWith("-") && value !== "-"))
    ) {
      throw new LoreError("invalid_input", {
        reason: `${token.rawName} needs a value (write ${token.rawName}=VALUE for a value that starts with “-”)`,
        reason_ru: `${token.rawName} нужно значение (для значения, начинающегося с «-», пишите ${token.rawName}=ЗНАЧЕНИЕ)`,
      });
    }
    if (spec.type === "boolean" && value !== undefined) {
      throw new LoreError("invalid_input", {
        reason: `${token.rawName} takes no value, not “${value}”`,
        reason_ru: `${token.rawName} не принимает значения, а дано «${value}»`,
      });
    }
  }
  return {
    values: parsed.values as CommandArgs["values"],
    positionals: parsed.positionals,
  };
}
