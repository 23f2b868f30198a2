import { v7 } from "uuid";
import { uuidV7Successor } from "../../core/entry/uuid7.js";

/**
 * Makes an id minter: each call returns a fresh UUIDv7 (seed 004, "Поля заголовка": `id`),
 * strictly greater as a string than every id it returned before (ids minted in a tight loop). The
 * `uuid` package already keeps a monotonic counter within a millisecond and across clock
 * steps back; the minter guards that promise anyway, taking the successor of the last id
 * when a generator ever repeats or goes back.
 *
 * @param generate - the source of UUIDv7s. Default: `uuid`'s `v7`.
 * @returns a function that mints the next id, lower case, canonical form.
 */
export function createEntryIdMinter(generate: () => string = v7): () => string {
  let last = "";
  return () => {
    const candidate = generate().toLowerCase();
    last = candidate > last ? candidate : uuidV7Successor(last);
    return last;
  };
}

/**
 * Mints a fresh entry id: a UUIDv7, strictly increasing as a string across calls in one
 * process. New entries are named `<id>.md`.
 */
export const mintEntryId: () => string = createEntryIdMinter();
