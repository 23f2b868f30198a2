/**
 * When `route_context` adds the roots overlay (seed 003, "Поток агента": «при запросе про
 * group/public/roots/chmod/registry или совпадении строки реестра»). Pure; matching uses
 * `analyzeText`, the normalisation and stems of recall.
 */
import { analyzeText } from "../text/analyze-text.js";
import { normalizeText } from "../text/normalize-text.js";
import type { RegistryEntry } from "./roots-registry.js";

/**
 * Words that make a query about roots, in English and Russian; compared by stem, so word
 * forms match (`roots`, `корни`, `реестра`).
 */
export const ROUTING_WORDS: readonly string[] = [
  "group",
  "public",
  "root",
  "roots",
  "chmod",
  "registry",
  "read-only",
  "корень",
  "корни",
  "реестр",
  "группа",
  "публичный",
];

const ROUTING_STEMS = new Set(ROUTING_WORDS.flatMap((word) => analyzeText(word)));

/** Tokens of a path that say nothing about its subject: versions, numbers, `md`. */
const NOISE = /^(v\d+|\d+|md|example)$/;

/**
 * Tells whether a query is about roots (names group, public, roots, chmod, the registry…).
 *
 * @param query - the agent's query.
 */
export function isRoutingQuery(query: string): boolean {
  return analyzeText(query).some((stem) => ROUTING_STEMS.has(stem));
}

/**
 * The registry entries a query matches: the query holds the entry's path (normalised), or
 * every word of the entry's last path segment (by stem; versions like `v1`, numbers and `md`
 * ignored) occurs in the query.
 *
 * @param entries - registry entries.
 * @param query - the agent's query.
 * @returns the matching entries in registry order.
 */
export function matchingRegistryEntries(
  entries: readonly RegistryEntry[],
  query: string,
): RegistryEntry[] {
  const normalized = normalizeText(query);
  const stems = new Set(analyzeText(query));
  return entries.filter((entry) => {
    if (normalized.includes(normalizeText(entry.path))) return true;
    const last = entry.path.split("/").at(-1) ?? "";
    const words = analyzeText(last.replace(/\.md$/i, "")).filter((stem) => !NOISE.test(stem));
    return words.length > 0 && words.every((stem) => stems.has(stem));
  });
}
