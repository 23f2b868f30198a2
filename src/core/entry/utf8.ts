/**
 * UTF-8 measures and checks used by the entry format (seed 004, "Пределы": limits are
 * in bytes of UTF-8, and a file must be UTF-8 to be read at all).
 */

/**
 * Counts the bytes a string takes in UTF-8, without encoding it. A lone surrogate counts
 * as 3 bytes, as an encoder writes U+FFFD in its place.
 *
 * @param text - any string.
 * @returns the length in bytes.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Finds the first byte that breaks UTF-8 (Unicode 15, table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequence).
 *
 * @param bytes - the raw file.
 * @returns the offset (0-based, bytes) where the first bad sequence starts, or -1 when
 *   the whole input is well-formed.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) [need, lo] = [2, 0xa0];
    else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
    else if (b === 0xed) [need, hi] = [2, 0x9f];
    else if (b === 0xf0) [need, lo] = [3, 0x90];
    else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else if (b === 0xf4) [need, hi] = [3, 0x8f];
    else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (c === undefined || c < min || c > max) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Finds the first lone surrogate in a string (a string that no UTF-8 file can hold).
 *
 * @param text - any string.
 * @returns the UTF-16 index of the lone surrogate, or -1.
 */
export function loneSurrogateIndex(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
