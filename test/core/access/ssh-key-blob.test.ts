import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readSshKeyBlob, sshKeyBlobType } from "../../../src/core/access/ssh-key-blob.js";

/** An SSH `string`: uint32 length, then the bytes. */
function field(value: Buffer | string): Buffer {
  const bytes = typeof value === "string" ? Buffer.from(value, "latin1") : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** A positive integer's bytes as an SSH mpint (a leading zero when the high bit is set). */
function mpint(magnitude: Buffer): Buffer {
  return field(
    (magnitude[0] as number) & 0x80 ? Buffer.concat([Buffer.of(0), magnitude]) : magnitude,
  );
}

/** The `ssh-rsa` blob of a real RSA key of `bits` bits. */
function rsaBlob(bits: number): Buffer {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  const jwk = publicKey.export({ format: "jwk" });
  return Buffer.concat([
    field("ssh-rsa"),
    mpint(Buffer.from(jwk.e ?? "", "base64url")),
    mpint(Buffer.from(jwk.n ?? "", "base64url")),
  ]);
}

function refusal(type: string, blob: Buffer): string {
  const read = readSshKeyBlob(type, blob);
  if (read.ok) throw new Error("expected a refusal");
  return read.problem.en;
}

describe("readSshKeyBlob", () => {
  it("reads RSA keys of 2048 and 3072 bits with their size", () => {
    for (const bits of [2048, 3072]) {
      expect(readSshKeyBlob("ssh-rsa", rsaBlob(bits))).toEqual({
        ok: true,
        key: { type: "ssh-rsa", bits },
      });
    }
  });

  it("refuses an RSA modulus under 2048 bits, saying its size and the minimum (en and ru)", () => {
    for (const bits of [512, 1024, 2040]) {
      const read = readSshKeyBlob("ssh-rsa", rsaBlob(bits));
      expect(read).toEqual({
        ok: false,
        problem: {
          en: `the ssh-rsa key is ${bits} bits; at least 2048 are needed (ssh-keygen -t ed25519, or -t rsa -b 3072)`,
          ru: `ключ ssh-rsa — ${bits} бит; нужно не меньше 2048 (ssh-keygen -t ed25519 или -t rsa -b 3072)`,
        },
      });
    }
  });

  it("refuses malformed RSA data: random bytes, e=3 n=5, trailing bytes, bad mpints", () => {
    const good = rsaBlob(2048);
    const big = Buffer.alloc(256, 0xff);
    const cases: [string, Buffer][] = [
      [
        "random bytes after the header",
        Buffer.concat([field("ssh-rsa"), Buffer.from("x".repeat(300))]),
      ],
      ["a trailing byte", Buffer.concat([good, Buffer.of(0)])],
      ["no modulus", Buffer.concat([field("ssh-rsa"), field(Buffer.of(1, 0, 1))])],
      ["a negative modulus", Buffer.concat([field("ssh-rsa"), field(Buffer.of(3)), field(big)])],
      [
        "a modulus with a needless zero byte",
        Buffer.concat([
          field("ssh-rsa"),
          field(Buffer.of(3)),
          field(Buffer.concat([Buffer.of(0), Buffer.of(0x7f), big])),
        ]),
      ],
      ["an even exponent", Buffer.concat([field("ssh-rsa"), field(Buffer.of(4)), mpint(big)])],
      ["exponent 1", Buffer.concat([field("ssh-rsa"), field(Buffer.of(1)), mpint(big)])],
      [
        "an even modulus",
        Buffer.concat([
          field("ssh-rsa"),
          field(Buffer.of(3)),
          mpint(Buffer.concat([big, Buffer.of(2)])),
        ]),
      ],
      ["the ed25519 type inside", Buffer.concat([field("ssh-ed25519"), field(Buffer.alloc(32))])],
      ["a length past the end", Buffer.concat([field("ssh-rsa"), Buffer.of(0, 0, 1, 0, 3)])],
    ];
    // Well-formed but tiny: refused for its size.
    expect(
      refusal(
        "ssh-rsa",
        Buffer.concat([field("ssh-rsa"), field(Buffer.of(3)), field(Buffer.of(5))]),
      ),
    ).toMatch(/^the ssh-rsa key is 3 bits; at least 2048 are needed/);
    for (const [what, blob] of cases) {
      expect(refusal("ssh-rsa", blob), what).toMatch(/^the ssh-rsa key data is malformed \(/);
    }
  });

  it("reads an ed25519 key of 32 bytes and refuses any other length or trailing bytes", () => {
    const key = Buffer.alloc(32, 7);
    expect(
      readSshKeyBlob("ssh-ed25519", Buffer.concat([field("ssh-ed25519"), field(key)])),
    ).toEqual({
      ok: true,
      key: { type: "ssh-ed25519", publicKey: key },
    });
    for (const blob of [
      Buffer.concat([field("ssh-ed25519"), field(Buffer.alloc(31))]),
      Buffer.concat([field("ssh-ed25519"), field(Buffer.alloc(33))]),
      Buffer.concat([field("ssh-ed25519"), field(key), Buffer.of(1)]),
      field("ssh-ed25519"),
    ]) {
      expect(refusal("ssh-ed25519", blob)).toMatch(/^the ssh-ed25519 key data is malformed \(/);
    }
  });

  it("reads ECDSA points of each curve and refuses a wrong curve, length or compression", () => {
    for (const [type, size] of [
      ["ecdsa-sha2-nistp256", 32],
      ["ecdsa-sha2-nistp384", 48],
      ["ecdsa-sha2-nistp521", 66],
    ] as const) {
      const curve = type.slice("ecdsa-sha2-".length);
      const point = Buffer.concat([Buffer.of(4), Buffer.alloc(size, 1), Buffer.alloc(size, 2)]);
      const read = readSshKeyBlob(type, Buffer.concat([field(type), field(curve), field(point)]));
      expect(read.ok && read.key.type).toBe(type);
      for (const blob of [
        Buffer.concat([field(type), field("nistp999"), field(point)]),
        Buffer.concat([field(type), field(curve), field(point.subarray(0, -1))]),
        Buffer.concat([
          field(type),
          field(curve),
          field(Buffer.concat([Buffer.of(2), point.subarray(1, 1 + size)])),
        ]),
        Buffer.concat([field(type), field(curve), field(point), Buffer.of(0)]),
      ]) {
        expect(refusal(type, blob)).toMatch(new RegExp(`^the ${type} key data is malformed \\(`));
      }
    }
  });

  it("refuses other types, the security-key ones too, and tells a blob's type", () => {
    for (const type of [
      "ssh-dss",
      "sk-ssh-ed25519@openssh.com",
      "sk-ecdsa-sha2-nistp256@openssh.com",
    ]) {
      const blob = Buffer.concat([field(type), field(Buffer.alloc(32))]);
      expect(sshKeyBlobType(blob)).toBe(type);
      expect(refusal(type, blob)).toBe(`unsupported key type ${JSON.stringify(type)}`);
    }
    expect(sshKeyBlobType(Buffer.of(0, 0))).toBeUndefined();
  });
});
