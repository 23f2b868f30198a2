import type { Lang } from "../errors/localized-text.js";

/** Most report lines a push answers with (seed 004, "Разбор при отправке"); the rest are counted. */
export const PUSH_REPORT_MAX_LINES = 200;

/**
 * Caps a push's parse report: the first `max` lines, then one final line
 * `… and N more` (`… и ещё N`) counting the rest, so a report of 2,000 remarks is 200
 * lines plus `… and 1800 more`.
 *
 * @param lines - the whole report, one line each, no newlines.
 * @param lang - the language of the final line.
 * @param max - lines kept; default {@link PUSH_REPORT_MAX_LINES} (200).
 * @returns the lines to send; the input itself when it fits.
 */
export function capReport(
  lines: readonly string[],
  lang: Lang,
  max: number = PUSH_REPORT_MAX_LINES,
): string[] {
  if (lines.length <= max) return [...lines];
  const rest = lines.length - max;
  return [...lines.slice(0, max), lang === "ru" ? `… и ещё ${rest}` : `… and ${rest} more`];
}
