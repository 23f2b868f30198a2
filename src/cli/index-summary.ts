import type { Lang } from "../core/errors/localized-text.js";
import type { IndexReport } from "../services/indexing/index-knowledge.js";

/**
 * One line about an indexing run: what, and the counts.
 *
 * @param run - the run.
 * @param lang - the language.
 */
export function indexSummary(run: IndexReport & { target: string }, lang: Lang): string {
  const at = run.commit ? ` @ ${run.commit.slice(0, 12)}` : "";
  return lang === "ru"
    ? `${run.target}${at}: новых ${run.added}, изменённых ${run.updated}, удалённых ${run.removed}, без изменений ${run.unchanged}, пропущено ${run.skipped}`
    : `${run.target}${at}: ${run.added} added, ${run.updated} updated, ${run.removed} removed, ${run.unchanged} unchanged, ${run.skipped} skipped`;
}
