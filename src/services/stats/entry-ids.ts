/**
 * Entry ids as the counters take them: trimmed, a UUID folded to lower case (the parser
 * holds ids in lower case, so `01A2…` names the same entry; `services/knowledge/get-entry.ts`
 * does the same), other ids kept as given.
 */

/**
 * The id an entry is held under.
 *
 * @param id - as a caller gave it.
 */
export function foldEntryId(id: string): string {
  const trimmed = id.trim();
  return /^[0-9a-f-]+$/i.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}
