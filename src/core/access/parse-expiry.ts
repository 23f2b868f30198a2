/**
 * Reading a token's lifetime (`lore token create --expires 30d`). Pure.
 */
import { LoreError } from "../errors/lore-error.js";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Longest lifetime accepted: 10 years, ms (a typo such as `3000000d` is refused, not kept). */
export const MAX_EXPIRY_MS = 3650 * UNIT_MS.d;

/**
 * Parses a lifetime: a whole number and a unit, `m` minutes, `h` hours, `d` days
 * (`90m`, `12h`, `30d`).
 *
 * @param text - the lifetime as given.
 * @returns the lifetime in ms (> 0, at most {@link MAX_EXPIRY_MS}).
 * @throws LoreError `invalid_input` naming the accepted form.
 */
export function parseExpiry(text: string): number {
  const match = /^([1-9][0-9]{0,6})([mhd])$/.exec(text.trim());
  const ms =
    match === null ? Number.NaN : Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isFinite(ms) || ms > MAX_EXPIRY_MS) {
    throw new LoreError("invalid_input", {
      reason: `--expires ${JSON.stringify(text)}: give a whole number and m, h or d (90m, 12h, 30d), at most 3650d`,
      reason_ru: `--expires ${JSON.stringify(text)}: укажите целое число и m, h или d (90m, 12h, 30d), не больше 3650d`,
    });
  }
  return ms;
}
