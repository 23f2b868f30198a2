/**
 * The readable table of `lore stats me|team|dead` (seed 004 "Интерфейс": entry, summary,
 * shown, read, last shown, and the ailment of the dead-memory report), in the message
 * language. `--json` prints the answer itself instead.
 */
import type { Lang } from "../core/errors/localized-text.js";
import type { DeadAnswer, StatsKind, UsageAnswer, UsageRow } from "../core/stats/usage-stats.js";

/** Most characters of a summary in the table (the JSON has it whole). */
export const SUMMARY_WIDTH = 60;

const HEADERS = {
  en: {
    entry: "ENTRY",
    summary: "SUMMARY",
    shown: "SHOWN",
    read: "READ",
    last: "LAST SHOWN",
    ailment: "AILMENT",
  },
  ru: {
    entry: "ЗАПИСЬ",
    summary: "СУТЬ",
    shown: "ПОКАЗАНО",
    read: "ПРОЧТЕНО",
    last: "ПОСЛЕДНИЙ ПОКАЗ",
    ailment: "НЕДУГ",
  },
} as const;

const AILMENTS_RU: Record<string, string> = {
  shown_not_read: "показана, не прочтена",
  unreachable: "недостижима",
  never_shown: "ни разу не показана",
};

/**
 * The lines of the table: a header, one line per row, then notes (a truncated answer, the
 * thresholds of `dead`). An empty answer is one line saying so.
 *
 * @param kind - which report the answer is.
 * @param answer - the answer of `stats/me|team` or `stats/dead`.
 * @param lang - `en` or `ru`.
 */
export function formatStats(
  kind: StatsKind,
  answer: UsageAnswer | DeadAnswer,
  lang: Lang,
): string[] {
  const h = HEADERS[lang];
  const dead = kind === "dead";
  const lines: string[][] = [
    [h.entry, h.summary, h.shown, h.read, h.last, ...(dead ? [h.ailment] : [])],
  ];
  for (const row of answer.items) {
    lines.push([
      entryCell(row),
      clip(row.summary, SUMMARY_WIDTH),
      String(row.shown),
      String(row.read),
      lastShown(row.last_shown_at, lang),
      ...(dead ? [ailmentCell(row, lang)] : []),
    ]);
  }
  const out = answer.items.length === 0 ? [emptyLine(kind, lang)] : columns(lines, [2, 3]);
  if (answer.partial === "truncated") {
    out.push(
      lang === "ru"
        ? `(не всё: первые ${answer.items.length} строк — больше не выдаётся)`
        : `(truncated: the first ${answer.items.length} rows; more are not given)`,
    );
  }
  if ("min_shown" in answer) {
    out.push(
      lang === "ru"
        ? `пороги: min_shown ${answer.min_shown}, min_age_days ${answer.min_age_days}`
        : `thresholds: min_shown ${answer.min_shown}, min_age_days ${answer.min_age_days}`,
    );
  }
  return out;
}

/** The entry's path, a draft marked with its branch. */
function entryCell(row: UsageRow): string {
  if (row.draft !== true) return row.path;
  return row.branch === undefined ? `${row.path} [draft]` : `${row.path} [draft ${row.branch}]`;
}

/** The ailment, `unreachable` with the mechanisms it needs. */
function ailmentCell(
  row: UsageRow & { ailment?: string; unmet_mechanisms?: string[] },
  lang: Lang,
): string {
  const name = row.ailment ?? "";
  const text = lang === "ru" ? (AILMENTS_RU[name] ?? name) : name;
  const unmet = row.unmet_mechanisms ?? [];
  return unmet.length === 0 ? text : `${text} (${unmet.join(", ")})`;
}

/** An ISO time to the minute in UTC, or never. */
function lastShown(iso: string | null, lang: Lang): string {
  if (iso === null) return lang === "ru" ? "никогда" : "never";
  return iso.replace("T", " ").replace(/:\d{2}(\.\d+)?Z$/, "Z");
}

function emptyLine(kind: StatsKind, lang: Lang): string {
  if (kind === "me") {
    return lang === "ru"
      ? "вам ещё не показывали записей этого репозитория"
      : "no entry of this repository was shown to you or read by you yet";
  }
  if (kind === "dead") return lang === "ru" ? "мёртвых записей нет" : "no dead entries";
  return lang === "ru" ? "в репозитории нет записей" : "the repository has no entries";
}

/** Cuts a text to `width` characters, marking the cut. */
function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= width ? flat : `${chars.slice(0, width - 1).join("")}…`;
}

/** Pads the cells into columns two spaces apart; `right` are the right-aligned ones. */
function columns(rows: string[][], right: number[]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - [...cell].length);
        return right.includes(i) ? pad + cell : i === row.length - 1 ? cell : cell + pad;
      })
      .join("  "),
  );
}
