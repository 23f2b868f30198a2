/**
 * Maps items through an async function with at most `limit` calls in flight; results keep
 * the input order. A rejection of `fn` rejects the whole map (catch inside `fn` to keep
 * going) — seed 000 "concurrency-pool", seed 001 Task 2 (`pool(repos, concurrency, …)`).
 *
 * @param items - the inputs.
 * @param limit - most calls at once, a whole number ≥ 1 (smaller values are read as 1).
 * @param fn - the work for one item, given the item and its index.
 * @returns the results, in input order.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
