/**
 * The SSH wire format of a public key (RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4), read
 * field by field (seed 004, team server: git over SSH with public-key authentication). Pure:
 * `lore key add`, `POST /api/v1/admin/keys` and the SSH server's authentication check a key
 * with {@link sshKeyBlobProblem}, so a weak or malformed key is neither stored nor let in.
 */

/** Fewest bits of an RSA modulus accepted (as NIST SP 800-131A and OpenSSH's `ssh-keygen`). */
export const RSA_MIN_BITS = 2048;

/** Most bits of an RSA modulus accepted (OpenSSH's own upper bound). */
export const RSA_MAX_BITS = 16_384;

/** Bytes of each coordinate of an ECDSA point, by key type. */
export const ECDSA_COORDINATE_BYTES: Readonly<Record<string, number>> = {
  "ecdsa-sha2-nistp256": 32,
  "ecdsa-sha2-nistp384": 48,
  "ecdsa-sha2-nistp521": 66,
};

/** A key blob read: its type and the fields a check beyond the format needs. */
export type SshKeyBlob =
  | {
      type: "ssh-rsa";
      /** Bits of the modulus `n` (its highest set bit's position + 1). */
      bits: number;
    }
  | { type: "ssh-ed25519"; publicKey: Buffer }
  | {
      type: "ecdsa-sha2-nistp256" | "ecdsa-sha2-nistp384" | "ecdsa-sha2-nistp521";
      /** The affine coordinates of the point, big-endian, each of the curve's length. */
      x: Buffer;
      y: Buffer;
    };

/** Why a key blob is refused, in English and Russian. */
export interface SshKeyProblem {
  en: string;
  ru: string;
}

/** Reads SSH `string`s and `mpint`s off a buffer; undefined when the data runs out. */
class WireReader {
  private at = 0;
  constructor(private readonly data: Buffer) {}
  /** One `string` (uint32 length, then the bytes). */
  bytes(): Buffer | undefined {
    if (this.data.length - this.at < 4) return undefined;
    const length = this.data.readUInt32BE(this.at);
    if (this.data.length - this.at - 4 < length) return undefined;
    const value = this.data.subarray(this.at + 4, this.at + 4 + length);
    this.at += 4 + length;
    return value;
  }
  /** True when every byte was read. */
  done(): boolean {
    return this.at === this.data.length;
  }
}

/**
 * The type a key blob names in its first field (`ssh-rsa`, `ssh-ed25519`, …), as an SSH
 * client's offered key carries it.
 *
 * @returns undefined when the blob does not start with a string.
 */
export function sshKeyBlobType(blob: Buffer): string | undefined {
  return new WireReader(blob).bytes()?.toString("latin1");
}

/**
 * An `mpint` that must be positive and minimally encoded (RFC 4251 §5): no leading zero
 * byte unless the next byte's high bit is set, no sign bit.
 *
 * @returns the magnitude's bytes without the leading zero, or undefined when it is zero,
 *   negative or not minimal.
 */
function positiveMpint(raw: Buffer): Buffer | undefined {
  if (raw.length === 0) return undefined; // zero
  const first = raw[0] as number;
  if (first & 0x80) return undefined; // negative
  if (first === 0) {
    if (raw.length === 1 || ((raw[1] as number) & 0x80) === 0) return undefined; // not minimal
    return raw.subarray(1);
  }
  return raw;
}

/** Bits of a positive big-endian magnitude whose first byte is not zero. */
function bitLength(magnitude: Buffer): number {
  return (magnitude.length - 1) * 8 + (magnitude[0] as number).toString(2).length;
}

const malformed = (type: string, en: string, ru: string): SshKeyProblem => ({
  en: `the ${type} key data is malformed (${en})`,
  ru: `данные ключа ${type} повреждены (${ru})`,
});

/**
 * Reads a public key blob of the type its `.pub` line (or the SSH client) names, field by
 * field: the type string inside must be that type, nothing may follow the last field.
 * - `ssh-rsa`: `e` and `n` as positive minimal mpints, `e` odd and at least 3, `n` odd,
 *   larger than `e`, of {@link RSA_MIN_BITS}–{@link RSA_MAX_BITS} bits;
 * - `ssh-ed25519`: a 32-byte key;
 * - `ecdsa-sha2-nistpNNN`: the curve name `nistpNNN` and an uncompressed point
 *   (`0x04`, x, y, each {@link ECDSA_COORDINATE_BYTES} long; whether it lies on the curve
 *   is for the caller, with a crypto library).
 *
 * @param type - the key type named outside the blob (`ssh-rsa`, …).
 * @param blob - the base64-decoded key.
 * @returns the key read, or why it is refused (an unknown type, malformed data, an RSA
 *   modulus too small: "the ssh-rsa key is 1024 bits; at least 2048 are needed").
 */
export function readSshKeyBlob(
  type: string,
  blob: Buffer,
): { ok: true; key: SshKeyBlob } | { ok: false; problem: SshKeyProblem } {
  const fail = (problem: SshKeyProblem) => ({ ok: false as const, problem });
  const reader = new WireReader(blob);
  const inner = reader.bytes();
  if (inner === undefined || inner.toString("latin1") !== type) {
    return fail(malformed(type, `the type inside is not ${type}`, `тип внутри — не ${type}`));
  }
  if (type === "ssh-rsa") {
    const rawE = reader.bytes();
    const rawN = reader.bytes();
    if (rawE === undefined || rawN === undefined || !reader.done()) {
      return fail(malformed(type, "not an exponent and a modulus", "не экспонента и модуль"));
    }
    const e = positiveMpint(rawE);
    const n = positiveMpint(rawN);
    if (e === undefined || n === undefined) {
      return fail(malformed(type, "not a positive minimal mpint", "не положительный mpint"));
    }
    const eBits = bitLength(e);
    if (((e[e.length - 1] as number) & 1) === 0 || (e.length === 1 && e[0] === 1)) {
      return fail(
        malformed(type, "the exponent is not odd and at least 3", "экспонента не нечётная ≥ 3"),
      );
    }
    const bits = bitLength(n);
    if (((n[n.length - 1] as number) & 1) === 0 || bits <= eBits) {
      return fail(
        malformed(
          type,
          "the modulus is not odd and larger than the exponent",
          "модуль не нечётный или не больше экспоненты",
        ),
      );
    }
    if (bits < RSA_MIN_BITS) {
      return fail({
        en: `the ssh-rsa key is ${bits} bits; at least ${RSA_MIN_BITS} are needed (ssh-keygen -t ed25519, or -t rsa -b 3072)`,
        ru: `ключ ssh-rsa — ${bits} бит; нужно не меньше ${RSA_MIN_BITS} (ssh-keygen -t ed25519 или -t rsa -b 3072)`,
      });
    }
    if (bits > RSA_MAX_BITS) {
      return fail({
        en: `the ssh-rsa key is ${bits} bits; at most ${RSA_MAX_BITS} are accepted`,
        ru: `ключ ssh-rsa — ${bits} бит; допускается не больше ${RSA_MAX_BITS}`,
      });
    }
    return { ok: true, key: { type, bits } };
  }
  if (type === "ssh-ed25519") {
    const key = reader.bytes();
    if (key === undefined || key.length !== 32 || !reader.done()) {
      return fail(malformed(type, "not one 32-byte key", "не один ключ в 32 байта"));
    }
    return { ok: true, key: { type, publicKey: key } };
  }
  const size = ECDSA_COORDINATE_BYTES[type];
  if (
    size !== undefined &&
    (type === "ecdsa-sha2-nistp256" ||
      type === "ecdsa-sha2-nistp384" ||
      type === "ecdsa-sha2-nistp521")
  ) {
    const curve = reader.bytes();
    const point = reader.bytes();
    if (curve === undefined || curve.toString("latin1") !== type.slice("ecdsa-sha2-".length)) {
      return fail(malformed(type, "the curve is not the type's", "кривая не та, что в типе"));
    }
    if (point === undefined || !reader.done() || point.length !== 1 + 2 * size || point[0] !== 4) {
      return fail(malformed(type, "not one uncompressed point", "не одна несжатая точка"));
    }
    return {
      ok: true,
      key: { type, x: point.subarray(1, 1 + size), y: point.subarray(1 + size) },
    };
  }
  return fail({
    en: `unsupported key type ${JSON.stringify(type.slice(0, 40))}`,
    ru: `неподдерживаемый тип ключа ${JSON.stringify(type.slice(0, 40))}`,
  });
}
