/**
 * The benchmark's mixed query set: frequent, mid and rare words, two
 * words, a prefix, word forms, Russian and English — chosen by rank in the generator's
 * Zipfian vocabularies, so each category has a known frequency in the generated corpus.
 */
import { buildVocabularies, TOOL_NAMES } from "./word-lists.js";

/** Query categories, reported separately in results.json. */
export type QueryCategory =
  | "frequent"
  | "mid"
  | "rare"
  | "two_words"
  | "prefix"
  | "word_form"
  | "tool";

/** One benchmark query: text for recall and search, or a tool name (recall only). */
export interface BenchQuery {
  category: QueryCategory;
  lang: "en" | "ru" | "none";
  query?: string;
  tool?: string;
}

/**
 * Builds the query set. `tools` adds `on_tool` lookups (recall only: search has no tool).
 * Ranks: frequent 0–45 (function words and the most common content words), mid 100–300,
 * rare 2,000–18,000 (synthetic tail words: from a few dozen documents down to a handful).
 */
export function buildQuerySet(options: { tools: boolean }): BenchQuery[] {
  const { en, ru } = buildVocabularies();
  const out: BenchQuery[] = [];
  const at = (lang: "en" | "ru", rank: number): string =>
    ((lang === "en" ? en : ru).words[rank] as string) ?? "";
  for (const lang of ["en", "ru"] as const) {
    for (const r of [0, 2, 5, 12, 25, 45])
      out.push({ category: "frequent", lang, query: at(lang, r) });
    for (const r of [100, 140, 180, 220, 260, 300])
      out.push({ category: "mid", lang, query: at(lang, r) });
    for (const r of [2000, 5000, 9000, 13000, 18000])
      out.push({ category: "rare", lang, query: at(lang, r) });
    out.push({ category: "two_words", lang, query: `${at(lang, 120)} ${at(lang, 210)}` });
    out.push({ category: "two_words", lang, query: `${at(lang, 12)} ${at(lang, 7000)}` });
    out.push({ category: "two_words", lang, query: `${at(lang, 3)} ${at(lang, 60)}` });
  }
  for (const query of ["deplo*", "migr*", "откат*", "сбор*", "conf*"]) {
    out.push({ category: "prefix", lang: /[a-z]/.test(query) ? "en" : "ru", query });
  }
  for (const query of ["deploying", "rolled back deploys", "как откатить релиз", "зеленая ёлка"]) {
    out.push({ category: "word_form", lang: /[a-z]/.test(query) ? "en" : "ru", query });
  }
  if (options.tools) {
    for (const tool of TOOL_NAMES.filter((_, i) => i % 5 === 0)) {
      out.push({ category: "tool", lang: "none", tool });
    }
  }
  return out;
}

/** A handful of single-word queries for the ripgrep baseline: frequent, mid and rare, both languages. */
export function ripgrepQueries(): string[] {
  const { en, ru } = buildVocabularies();
  return [en.words[25], en.words[180], en.words[9000], ru.words[45], ru.words[220]].map(
    (w) => w ?? "",
  );
}
