/**
 * A promise and the function that resolves it, for tests that hold work at a chosen point
 * (a delivery under a lock, a count in flight) and let it go later.
 */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
