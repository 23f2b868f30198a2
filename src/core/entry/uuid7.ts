/**
 * UUIDv7 checks for entry ids and links (seed 004, "Поля заголовка": `id` and `links`
 * hold UUIDv7s).
 */

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * Tells whether a string is a UUIDv7 in canonical form: 8-4-4-4-12 hex digits (either
 * case, RFC 9562 §4), version nibble `7`, variant nibble `8`, `9`, `a` or `b`. No braces,
 * no `urn:uuid:` prefix, no missing hyphens. The timestamp prefix is not checked. Nil and
 * max UUIDs fail on the version nibble.
 *
 * @param text - the candidate.
 * @returns `true` for a UUIDv7.
 */
export function isUuidV7(text: string): boolean {
  return text.length === 36 && UUID_V7.test(text);
}

const MASK_48 = (1n << 48n) - 1n;
const MASK_12 = (1n << 12n) - 1n;
const MASK_62 = (1n << 62n) - 1n;

/**
 * The smallest UUIDv7 greater than the given one: the 122 bits that are not version or
 * variant (timestamp, `rand_a`, `rand_b`) read as one counter plus one. Used to keep minted
 * ids strictly increasing when a generator repeats itself.
 *
 * @param id - a UUIDv7 (see {@link isUuidV7}).
 * @returns the next UUIDv7, lower case.
 */
export function uuidV7Successor(id: string): string {
  const n = BigInt(`0x${id.replace(/-/g, "")}`);
  const counter = (((n >> 80n) & MASK_48) << 74n) | (((n >> 64n) & MASK_12) << 62n) | (n & MASK_62);
  const next = counter + 1n;
  const out =
    (((next >> 74n) & MASK_48) << 80n) |
    (7n << 76n) |
    (((next >> 62n) & MASK_12) << 64n) |
    (2n << 62n) |
    (next & MASK_62);
  const hex = out.toString(16).padStart(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
