/**
 * Renders benchmark rows as a markdown table ("a markdown table").
 */

/** One row: a measured figure against its same-run baseline and its target. */
export interface ResultRow {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  /** `yes`, `no`, or `—` when the row has no target. */
  met: string;
}

const HEADER: ResultRow = {
  metric: "metric",
  value: "value",
  baseline: "baseline",
  ratio: "ratio",
  target: "target",
  met: "met?",
};

/** The rows as a markdown table, columns padded for reading in a terminal too. */
export function renderTable(rows: readonly ResultRow[]): string {
  const keys = Object.keys(HEADER) as (keyof ResultRow)[];
  const all = [HEADER, ...rows];
  const width = (k: keyof ResultRow): number => Math.max(...all.map((r) => r[k].length));
  const line = (r: ResultRow): string =>
    `| ${keys.map((k) => r[k].padEnd(width(k))).join(" | ")} |`;
  const rule = `|${keys.map((k) => "-".repeat(width(k) + 2)).join("|")}|`;
  return [line(HEADER), rule, ...rows.map(line)].join("\n");
}

/** Formats milliseconds for the table: `0.42 ms`, `12.3 ms`, `4.56 s`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Formats a ratio: `1.23×`. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return "—";
  return r >= 100 ? `${Math.round(r)}×` : `${r.toFixed(2)}×`;
}

/** `yes`/`no` for a target check. */
export function yesNo(ok: boolean): string {
  return ok ? "yes" : "no";
}
