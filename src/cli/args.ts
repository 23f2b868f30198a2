import { LoreError } from "../core/lore-error.js";
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
