/**
 * Cutting a delivery into batches (seed 004, "Пределы": «Пачка при сборке режется по
 * пределу разбора: остаток уезжает следующей пачкой, а не отказом»). Pure.
 */
import { utf8ByteLength } from "../entry/utf8.js";
import { DELIVERY_BATCH_BYTES } from "./draft.js";

/** A file of a delivery, as far as cutting goes. */
export interface BatchFile {
  /** `.gitriver/knowledge/<id>.md`: batches follow the id order. */
  path: string;
  /** The whole file; its UTF-8 bytes count against the limit. */
  content: string;
}

/**
 * Cuts files into batches of at most `limit` bytes each (the sum of the contents' UTF-8
 * sizes), in path order (= id order), filling each batch before starting the next. A file
 * larger than the limit on its own (never the case for a draft: 64 KB at most) gets a batch
 * of its own rather than a refusal.
 *
 * @param files - the files, any order.
 * @param limit - bytes per batch. Default: {@link DELIVERY_BATCH_BYTES} (10 MiB).
 * @returns the batches, each non-empty; none when `files` is empty.
 */
export function deliveryBatches<T extends BatchFile>(
  files: readonly T[],
  limit: number = DELIVERY_BATCH_BYTES,
): T[][] {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const file of sorted) {
    const size = utf8ByteLength(file.content);
    if (current.length > 0 && bytes + size > limit) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
