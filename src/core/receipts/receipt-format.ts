/**
 * Receipts and `why` answers as the CLI prints them for people (README "Load receipts";
 * `lore receipts`, `lore why`). Pure: lines out, no I/O.
 */
import type { MatchReason } from "../recall/contract-match.js";
import type { ReceiptPage } from "./receipt.js";
import type { WhyAnswer } from "./why.js";

/**
 * A recorded string made safe for a terminal: control characters (C0, DEL, C1: escape
 * sequences that retitle a window or clear the screen) and bidi overrides, which a hook's
 * prompt or session id may carry, are printed as `\u{…}` instead of acted on.
 *
 * @param text - a query, tool, client or session as recorded.
 */
export function printable(text: string): string {
  return text.replace(
    /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** One reason as text: `on_query “word”`, `on_tool name`, `text`. */
export function reasonText(why: MatchReason): string {
  return why.kind === "on_query"
    ? `on_query “${why.word}”`
    : why.kind === "on_tool"
      ? `on_tool ${why.name}`
      : "text";
}

/**
 * A page of receipts: per receipt a header (time, client, session, what was asked) and a
 * line per hit (rank, id, repo, revision, why).
 *
 * @param page - the page.
 * @param lang - `en` or `ru`.
 * @returns the lines.
 */
export function formatReceipts(page: ReceiptPage, lang: "en" | "ru"): string[] {
  const lines: string[] = [];
  for (const r of page.items) {
    const asked = [
      r.query === null ? undefined : `“${printable(r.query)}”`,
      r.tool === null ? undefined : `tool ${printable(r.tool)}`,
    ]
      .filter((part) => part !== undefined)
      .join(" + ");
    const session = r.session === null ? "" : `  session ${printable(r.session)}`;
    const total = r.total === null ? "" : lang === "ru" ? `  всего ${r.total}` : `  of ${r.total}`;
    lines.push(`#${r.id}  ${r.at}  ${printable(r.client)}${session}  ${asked}${total}`);
    if (r.hits.length === 0)
      lines.push(lang === "ru" ? "   (ничего не показано)" : "   (nothing surfaced)");
    for (const hit of r.hits) {
      const draft = hit.draft ? (lang === "ru" ? " черновик" : " draft") : "";
      lines.push(
        `   ${hit.rank}. ${hit.id}  ${hit.repo}  ${hit.revision.slice(0, 12)}${draft}  ${hit.why.map(reasonText).join(", ")}`,
      );
    }
  }
  if (page.items.length === 0) lines.push(lang === "ru" ? "квитанций нет" : "no receipts");
  if (page.next_cursor !== null) {
    lines.push(
      lang === "ru" ? `дальше: --cursor ${page.next_cursor}` : `more: --cursor ${page.next_cursor}`,
    );
  }
  return lines;
}

const VERDICTS = {
  surfaced: { en: "surfaced", ru: "показана" },
  unreachable: { en: "not surfaced: unreachable", ru: "не показана: недостижима" },
  outranked: {
    en: "not surfaced: matched but outranked (below the page)",
    ru: "не показана: подходила, но ниже страницы",
  },
  no_contract: {
    en: "not surfaced: no contract (on_query/on_tool) and no text match",
    ru: "не показана: нет контракта (on_query/on_tool) и совпадений по тексту",
  },
  never_matched: {
    en: "not surfaced: never matched a recall",
    ru: "не показана: ни один запрос не совпал",
  },
} as const;

/**
 * A `why` answer: the verdict, the mechanisms it lacks (when unreachable for want of some),
 * its contract, then the receipts it surfaced in and those it matched below the page.
 *
 * @param answer - the answer.
 * @param lang - `en` or `ru`.
 * @returns the lines.
 */
export function formatWhy(answer: WhyAnswer, lang: "en" | "ru"): string[] {
  const ru = lang === "ru";
  const lines = [`${answer.id}  ${answer.repo}  ${answer.path}`, VERDICTS[answer.verdict][lang]];
  // An entry with no contract is unreachable with no mechanism to name: no line then.
  if (!answer.reachable && answer.unmet_mechanisms.length > 0) {
    lines.push(
      `${ru ? "нет механизмов" : "unmet mechanisms"}: ${answer.unmet_mechanisms.join(", ")}`,
    );
  }
  const contract = [
    ...answer.contract.words.map((w) => `on_query “${w}”`),
    ...answer.contract.tools.map((t) => `on_tool ${t}`),
  ];
  lines.push(
    `${ru ? "контракт" : "contract"}: ${contract.length === 0 ? "—" : contract.join(", ")}`,
  );
  for (const s of answer.surfaced) {
    const asked = [
      s.query === null ? "" : `“${printable(s.query)}”`,
      s.tool === null ? "" : `tool ${printable(s.tool)}`,
    ]
      .filter((part) => part !== "")
      .join(" + ");
    lines.push(
      `  #${s.receipt}  ${s.at}  ${printable(s.client)}  ${asked}  ${ru ? "место" : "rank"} ${s.rank}  ${s.why.map(reasonText).join(", ")}  ${s.revision.slice(0, 12)}`,
    );
  }
  for (const o of answer.outranked) {
    const asked = [
      o.query === null ? "" : `“${printable(o.query)}”`,
      o.tool === null ? "" : `tool ${printable(o.tool)}`,
    ]
      .filter((part) => part !== "")
      .join(" + ");
    lines.push(
      `  #${o.receipt}  ${o.at}  ${printable(o.client)}  ${asked}  ${ru ? "подходила" : "would match"}: ${o.would_match.map(reasonText).join(", ")}; ${ru ? "страница кончалась на" : "the page ended at"} ${o.page_end} ${ru ? "из" : "of"} ${o.total}`,
    );
  }
  lines.push(
    ru
      ? `просмотрено квитанций: ${answer.receipts_checked}`
      : `receipts checked: ${answer.receipts_checked}`,
  );
  return lines;
}
