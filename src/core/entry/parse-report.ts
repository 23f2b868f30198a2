import type { Lang } from "../errors/localized-text.js";
import { type Diagnostic, formatDiagnosticLine, oneLine, type Severity } from "./diagnostic.js";
import type { BatchResult } from "./parse-batch.js";

/** One file's part of a report. */
export interface ReportFile {
  /** The file's path; fills diagnostics that carry none. */
  path: string;
  diagnostics: readonly Diagnostic[];
  /** Mechanisms the file's entry needs and this version does not know. Default: none. */
  unmetMechanisms?: readonly string[];
}

/**
 * What a report is made of: files in print order, then diagnostics that carry their own
 * path (e.g. `batch_limit` for deferred files), then the unknown mechanisms.
 */
export interface ReportInput {
  /** Files in print order. Default: none. */
  files?: readonly ReportFile[];
  /** Diagnostics printed after the files, with their own `path`. Default: none. */
  diagnostics?: readonly Diagnostic[];
  /** Unknown mechanisms of entries not listed in `files`, one list per entry. Default: none. */
  unmet?: readonly (readonly string[])[];
}

/** Options of {@link formatReport}. */
export interface ReportOptions {
  /** The least severe diagnostic printed: `info` prints all. Default: `info`. */
  minSeverity?: Severity;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

/**
 * Turns a batch result into a report input: its entries, then its skipped files, then its
 * batch diagnostics.
 *
 * @param batch - a result of `parseBatch`.
 * @returns the report input.
 */
export function reportInputFromBatch(batch: BatchResult): ReportInput {
  return {
    files: [
      ...batch.entries.map(({ path, parsed, diagnostics }) => ({
        path,
        diagnostics,
        unmetMechanisms: parsed.unmetMechanisms,
      })),
      ...batch.skipped,
    ],
    diagnostics: batch.diagnostics,
  };
}

/**
 * Formats the parse report (seed 004, "Отчёт разбора"): one line per diagnostic,
 * `path:line:column: message [code]`, files in the given order, then the run's own
 * diagnostics; then one summary line per unknown mechanism, most needed first, e.g.
 * `3 entries need mechanism “on_path”, which this version does not know` /
 * `3 записи требуют механизм „on_path“, которого эта версия не умеет`.
 *
 * @param input - a {@link ReportInput} or a `parseBatch` result.
 * @param lang - the message language.
 * @param options - see {@link ReportOptions}.
 * @returns the lines, without newlines; empty when there is nothing to say.
 */
export function formatReport(
  input: ReportInput | BatchResult,
  lang: Lang,
  options: ReportOptions = {},
): string[] {
  const report = "entries" in input ? reportInputFromBatch(input) : input;
  const floor = RANK[options.minSeverity ?? "info"];
  const lines: string[] = [];
  const print = (diagnostic: Diagnostic, path?: string) => {
    if (RANK[diagnostic.severity] < floor) return;
    const located =
      diagnostic.path === undefined && path !== undefined ? { ...diagnostic, path } : diagnostic;
    lines.push(formatDiagnosticLine(located, lang));
  };
  const needs = new Map<string, number>();
  const count = (mechanisms: readonly string[]) => {
    for (const mechanism of new Set(mechanisms)) {
      needs.set(mechanism, (needs.get(mechanism) ?? 0) + 1);
    }
  };
  for (const file of report.files ?? []) {
    for (const diagnostic of file.diagnostics) print(diagnostic, file.path);
    count(file.unmetMechanisms ?? []);
  }
  for (const diagnostic of report.diagnostics ?? []) print(diagnostic);
  for (const mechanisms of report.unmet ?? []) count(mechanisms);
  const ranked = [...needs].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0));
  for (const [mechanism, count] of ranked) lines.push(mechanismLine(mechanism, count, lang));
  return lines;
}

/**
 * The summary line for one unknown mechanism, with English and Russian plural forms
 * (1 запись, 2 записи, 5 записей, 21 запись).
 *
 * @param written - the mechanism's name as written (control characters are escaped, see
 *   `oneLine`).
 * @param count - how many entries need it.
 * @param lang - the language.
 * @returns one line.
 */
export function mechanismLine(written: string, count: number, lang: Lang): string {
  const mechanism = oneLine(written);
  if (lang === "ru") {
    const form = russianPlural(count);
    const noun = ["запись", "записи", "записей"][form];
    const verb = form === 0 ? "требует" : "требуют";
    return `${count} ${noun} ${verb} механизм „${mechanism}“, которого эта версия не умеет`;
  }
  return count === 1
    ? `1 entry needs mechanism “${mechanism}”, which this version does not know`
    : `${count} entries need mechanism “${mechanism}”, which this version does not know`;
}

/** Russian plural form of a count: 0 = one (1, 21), 1 = few (2–4, 22–24), 2 = many. */
function russianPlural(count: number): 0 | 1 | 2 {
  const mod10 = count % 10;
  const mod100 = count % 100;
  if (mod10 === 1 && mod100 !== 11) return 0;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return 1;
  return 2;
}
