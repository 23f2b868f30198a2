/**
 * The web view's sign-in limit: at most {@link SIGN_IN_FAILURES_PER_MINUTE} failed sign-ins
 * a minute per client address, so a browser page cannot be used to try tokens in bulk (a
 * token has 256 random bits, so this guards the server's load more than the tokens). Fixed
 * one-minute windows, in memory (a restart forgets them: harmless for a limit this loose).
 * Pure: the clock is passed in.
 */

/** Failed sign-ins a minute one client address may make before it waits. */
export const SIGN_IN_FAILURES_PER_MINUTE = 10;

/** Most client addresses remembered at once; the oldest windows go first past it. */
const MAX_ADDRESSES = 10_000;

const WINDOW_MS = 60_000;

/** The failures of one minute per address. */
export class SignInLimit {
  readonly #windows = new Map<string, { start: number; failures: number }>();
  readonly #limit: number;

  /** @param limit - failures a minute per address. Default {@link SIGN_IN_FAILURES_PER_MINUTE}. */
  constructor(limit: number = SIGN_IN_FAILURES_PER_MINUTE) {
    this.#limit = limit;
  }

  /** The limit, failures a minute. */
  get limit(): number {
    return this.#limit;
  }

  /**
   * Seconds until the address may try again, or 0 when it may now.
   *
   * @param address - the client's address.
   * @param now - ms since the epoch.
   */
  retryAfter(address: string, now: number): number {
    const window = this.#windows.get(address);
    if (window === undefined || now - window.start >= WINDOW_MS) return 0;
    if (window.failures < this.#limit) return 0;
    return Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  }

  /**
   * Counts one failed sign-in of the address.
   *
   * @param address - the client's address.
   * @param now - ms since the epoch.
   */
  fail(address: string, now: number): void {
    const window = this.#windows.get(address);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      this.#windows.delete(address);
      if (this.#windows.size >= MAX_ADDRESSES) {
        const oldest = this.#windows.keys().next().value;
        if (oldest !== undefined) this.#windows.delete(oldest);
      }
      this.#windows.set(address, { start: now, failures: 1 });
      return;
    }
    window.failures += 1;
  }
}
