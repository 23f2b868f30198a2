import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeEngines } from "../../../test/helpers/store-engines.js";
import type { LoreError } from "../../core/errors/lore-error.js";
import type { ServerStore } from "../../ports/server-store.js";
import {
  addKey,
  fingerprintOf,
  listKeys,
  parsePublicKeyLine,
  principalForKey,
  removeKey,
} from "./ssh-keys.js";
import { addUser } from "./users.js";

/** An ed25519 public key and the fingerprint `ssh-keygen -lf` printed for it. */
const KNOWN_KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop";
const KNOWN_FINGERPRINT = "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8";

function hasSshKeygen(): boolean {
  try {
    execFileSync("ssh-keygen", ["-?"], { stdio: "ignore" });
  } catch (error) {
    return (error as { code?: string }).code !== "ENOENT";
  }
  return true;
}

function refusal(run: () => unknown): LoreError {
  try {
    run();
  } catch (error) {
    return error as LoreError;
  }
  throw new Error("expected a refusal");
}

describe.each(storeEngines("keys"))("SSH public keys ($name)", (engine) => {
  let dir: string;
  let store: ServerStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "lore-keys-"));
    store = await engine.open(join(dir, "data"));
    await addUser(store, { name: "anna", now: 1 });
    await addUser(store, { name: "boris", now: 1 });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fingerprints a key as ssh-keygen -lf printed it (known vector)", () => {
    const key = parsePublicKeyLine(`${KNOWN_KEY}\n`);
    expect(key.algorithm).toBe("ssh-ed25519");
    expect(key.comment).toBe("anna@laptop");
    expect(key.fingerprint).toBe(KNOWN_FINGERPRINT);
    expect(fingerprintOf(key.blob)).toBe(KNOWN_FINGERPRINT);
  });

  it.runIf(hasSshKeygen())(
    "fingerprints ed25519, RSA and ECDSA keys exactly as the real ssh-keygen -lf",
    () => {
      for (const [type, bits] of [
        ["ed25519", ""],
        ["rsa", "2048"],
        ["ecdsa", "256"],
        ["ecdsa", "384"],
      ] as const) {
        const file = join(dir, `id_${type}${bits}`);
        execFileSync("ssh-keygen", [
          "-q",
          "-t",
          type,
          ...(bits ? ["-b", bits] : []),
          "-N",
          "",
          "-C",
          "x y",
          "-f",
          file,
        ]);
        const printed = execFileSync("ssh-keygen", ["-lf", `${file}.pub`], {
          encoding: "utf8",
        }).split(" ")[1];
        const key = parsePublicKeyLine(readFileSync(`${file}.pub`, "utf8"));
        expect(key.fingerprint).toBe(printed);
        expect(key.comment).toBe("x y");
        // A private key file is refused with the hint to give the .pub one.
        const error = refusal(() => parsePublicKeyLine(readFileSync(file, "utf8")));
        expect(error.code).toBe("key_invalid");
        expect(error.message).toContain(
          "this is a private key; give the public one (the .pub file)",
        );
      }
    },
  );

  it.each([
    ["", "the text is empty"],
    ["ssh-dss AAAAB3NzaC1kc3MAAACBAP", 'unsupported key type "ssh-dss"'],
    ["ssh-ed25519 AAAAbad", "the ssh-ed25519 key data is malformed"],
    [KNOWN_KEY.replace("ssh-ed25519", "ssh-rsa"), "the ssh-rsa key data is malformed"],
    [`${KNOWN_KEY}\n${KNOWN_KEY}`, "2 lines; give one key"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----", "this is a private key"],
  ])("refuses %j: %s", (text, reason) => {
    const error = refusal(() => parsePublicKeyLine(text));
    expect(error.code).toBe("key_invalid");
    expect(error.message).toContain(reason);
    expect(error.text.ru.startsWith("это не открытый ключ SSH: ")).toBe(true);
  });

  it.runIf(hasSshKeygen())(
    "refuses a real 1024-bit RSA key with its size and the minimum, in English and Russian",
    () => {
      const file = join(dir, "id_rsa1024");
      execFileSync("ssh-keygen", ["-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", file]);
      const error = refusal(() => parsePublicKeyLine(readFileSync(`${file}.pub`, "utf8")));
      expect(error.code).toBe("key_invalid");
      expect(error.text).toEqual({
        en: "not an SSH public key: the ssh-rsa key is 1024 bits; at least 2048 are needed (ssh-keygen -t ed25519, or -t rsa -b 3072)",
        ru: "это не открытый ключ SSH: ключ ssh-rsa — 1024 бит; нужно не меньше 2048 (ssh-keygen -t ed25519 или -t rsa -b 3072)",
      });
    },
  );

  it("refuses an RSA blob of random bytes, an ECDSA point off its curve and security keys", () => {
    const field = (value: Buffer | string) => {
      const bytes = typeof value === "string" ? Buffer.from(value) : value;
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return Buffer.concat([length, bytes]);
    };
    const line = (type: string, ...fields: Buffer[]) =>
      `${type} ${Buffer.concat([field(type), ...fields]).toString("base64")} x@y`;
    const offCurve = Buffer.concat([Buffer.of(4), Buffer.alloc(32, 1), Buffer.alloc(32, 2)]);
    for (const [text, reason] of [
      [
        line("ssh-rsa", Buffer.from("random bytes ".repeat(30))),
        "the ssh-rsa key data is malformed",
      ],
      [line("ssh-rsa", field(Buffer.of(3)), field(Buffer.of(5))), "the ssh-rsa key is 3 bits"],
      [
        line("ecdsa-sha2-nistp256", field("nistp256"), field(offCurve)),
        "the ecdsa-sha2-nistp256 key data is malformed (the point is not on the curve)",
      ],
      [line("ssh-ed25519", field(Buffer.alloc(31))), "the ssh-ed25519 key data is malformed"],
      [
        line("sk-ssh-ed25519@openssh.com", field(Buffer.alloc(32)), field("ssh:")),
        'unsupported key type "sk-ssh-ed25519@openssh.com"',
      ],
      ["ssh-ed25519 AAAA!!!!", "the ssh-ed25519 key data is malformed (not base64)"],
    ] as const) {
      const error = refusal(() => parsePublicKeyLine(text));
      expect(error.code, text).toBe("key_invalid");
      expect(error.message, text).toContain(reason);
    }
  });

  it("adds a key to one user, finds the principal by fingerprint, lists and removes it", async () => {
    const key = await addKey(store, { user: "anna", text: KNOWN_KEY, now: 5 });
    expect(key.fingerprint).toBe(KNOWN_FINGERPRINT);
    const principal = await principalForKey(store, KNOWN_FINGERPRINT);
    expect(principal).toEqual({
      userId: key.userId,
      user: "anna",
      siteAdmin: false,
      scopes: ["repo:read", "repo:write"],
      tokenId: 0,
    });
    expect(await principalForKey(store, "SHA256:unknown")).toBeUndefined();
    let error: LoreError | undefined;
    try {
      await addKey(store, { user: "boris", text: KNOWN_KEY, now: 6 });
    } catch (caught) {
      error = caught as LoreError;
    }
    expect(error?.code).toBe("key_exists");
    expect(error?.message).toBe(`the SSH key ${KNOWN_FINGERPRINT} is already registered`);
    expect((await listKeys(store, "anna")).map((k) => [k.user, k.fingerprint])).toEqual([
      ["anna", KNOWN_FINGERPRINT],
    ]);
    expect(await listKeys(store, "boris")).toEqual([]);
    expect((await removeKey(store, KNOWN_FINGERPRINT)).id).toBe(key.id);
    await expect(removeKey(store, String(key.id))).rejects.toMatchObject({ code: "key_not_found" });
    const again = await addKey(store, { user: "boris", text: KNOWN_KEY, now: 7 });
    expect((await removeKey(store, String(again.id))).fingerprint).toBe(KNOWN_FINGERPRINT);
  });
});
