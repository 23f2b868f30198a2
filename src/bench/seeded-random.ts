/**
 * A small deterministic pseudo-random source for the benchmark generator: the same seed gives
 * the same sequence on every machine and Node version (generated repositories
 * are cached by N and seed, so the sequence must never depend on the platform).
 */
export interface SeededRandom {
  /** Next float in [0, 1). */
  next(): number;
  /** Next integer in [0, n); `n` ≥ 1. */
  int(n: number): number;
  /** True with probability `p` (0..1). */
  chance(p: number): boolean;
  /** One element of a non-empty list, uniformly. */
  pick<T>(items: readonly T[]): T;
  /** `digits` random hex digits (lower case). */
  hex(digits: number): string;
}

/**
 * Creates a mulberry32 generator (32-bit state, period 2^32 — ample for a few hundred million
 * draws per run) seeded with `seed` (any integer; only its low 32 bits count).
 */
export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const next = (): number => nextUint32() / 4294967296;
  return {
    next,
    int: (n) => Math.floor(next() * n),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    hex: (digits) => {
      let out = "";
      while (out.length < digits) out += nextUint32().toString(16).padStart(8, "0");
      return out.slice(0, digits);
    },
  };
}

/**
 * A sampler of ranks 0..size-1 with Zipf's law: P(rank r) ∝ 1 / (r + 1)^exponent.
 * Sampling is a binary search over the cumulative weights (O(log size)).
 */
export interface ZipfSampler {
  /** Draws one rank using `random`. */
  sample(random: SeededRandom): number;
  /** The probability of rank `r` (for choosing queries of known frequency). */
  probability(r: number): number;
}

/**
 * Builds a {@link ZipfSampler} over `size` ranks (≥ 1) with the given exponent
 * (default 1.07, close to natural-language text).
 */
export function createZipfSampler(size: number, exponent = 1.07): ZipfSampler {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let r = 0; r < size; r++) {
    total += 1 / (r + 1) ** exponent;
    cumulative[r] = total;
  }
  return {
    sample(random) {
      const x = random.next() * total;
      let lo = 0;
      let hi = size - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((cumulative[mid] as number) < x) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
    probability: (r) => 1 / (r + 1) ** exponent / total,
  };
}
