/**
 * SSH public keys of the team server's users (seed 004, team server: git over SSH with
 * public-key authentication). A key is told by its fingerprint, exactly as
 * `ssh-keygen -l` prints it.
 */
import { createHash, createPublicKey } from "node:crypto";
import ssh2 from "ssh2";
import type { Principal } from "../../core/access/rights.js";
import { readSshKeyBlob, type SshKeyProblem } from "../../core/access/ssh-key-blob.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { KeyRecord, ServerStore } from "../../ports/server-store.js";
import { requireUser } from "./users.js";

/**
 * Key types accepted: ed25519, RSA (of 2048 to 16384 bits, see `RSA_MIN_BITS`) and the three
 * NIST ECDSA curves. Not accepted: `ssh-dss`, the security-key types (`sk-ssh-ed25519@openssh.com`,
 * `sk-ecdsa-sha2-nistp256@openssh.com`) and certificates (`…-cert-v01@openssh.com`).
 */
export const KEY_ALGORITHMS = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
] as const;

/** Longest `.pub` line accepted, characters (an RSA 16384-bit key is about 2.8 KB). */
export const KEY_LINE_MAX = 16_384;

/** One parsed `.pub` line. */
export interface PublicKeyLine {
  /** `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256` … */
  algorithm: string;
  /** The key blob, base64 as in the file. */
  publicKey: string;
  /** The blob's bytes. */
  blob: Buffer;
  /** The comment after the key (`anna@laptop`), or empty. */
  comment: string;
  /** `SHA256:…` (see {@link fingerprintOf}). */
  fingerprint: string;
}

/**
 * The fingerprint of a public key blob, as `ssh-keygen -lf` prints it: `SHA256:` and the
 * unpadded base64 of the blob's SHA-256.
 *
 * @param blob - the key in SSH wire format (the base64-decoded second field of a `.pub` line).
 */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

const JWK_CURVES: Readonly<Record<string, string>> = {
  "ecdsa-sha2-nistp256": "P-256",
  "ecdsa-sha2-nistp384": "P-384",
  "ecdsa-sha2-nistp521": "P-521",
};

/**
 * Why a public key blob may not be used, or undefined when it may: its fields read as its
 * type's (`readSshKeyBlob`: an RSA modulus of at least 2048 bits, a 32-byte ed25519 key, an
 * uncompressed ECDSA point), an ECDSA point on its curve (checked by importing it), and
 * ssh2's parser takes it. Checked when a key is added and again at each SSH authentication,
 * so a key stored before a rule tightened does not log in.
 *
 * @param algorithm - the type named outside the blob (`ssh-rsa`, …).
 * @param blob - the key in SSH wire format.
 */
export function keyBlobProblem(algorithm: string, blob: Buffer): SshKeyProblem | undefined {
  const read = readSshKeyBlob(algorithm, blob);
  if (!read.ok) return read.problem;
  const malformed = {
    en: `the ${algorithm} key data is malformed`,
    ru: `данные ключа ${algorithm} повреждены`,
  };
  if (read.key.type.startsWith("ecdsa-")) {
    const { x, y } = read.key as { x: Buffer; y: Buffer };
    try {
      createPublicKey({
        key: {
          kty: "EC",
          crv: JWK_CURVES[algorithm] ?? "",
          x: x.toString("base64url"),
          y: y.toString("base64url"),
        },
        format: "jwk",
      });
    } catch {
      return {
        en: `${malformed.en} (the point is not on the curve)`,
        ru: `${malformed.ru} (точка не на кривой)`,
      };
    }
  }
  const parsed = ssh2.utils.parseKey(blob);
  if (parsed instanceof Error || Array.isArray(parsed) || parsed.type !== algorithm) {
    return malformed;
  }
  return undefined;
}

/**
 * Parses one OpenSSH public key line (`ssh-ed25519 AAAA… anna@laptop`), its key read field
 * by field ({@link keyBlobProblem}).
 *
 * @param text - the `.pub` file's text (one key; blank lines and `#` comments are skipped).
 * @throws LoreError `key_invalid` for a private key (with the hint to give the `.pub`
 *   file), an unsupported type, a malformed or mismatched blob, an RSA key of fewer than
 *   2048 bits (the message gives its size and the minimum), or several keys.
 */
export function parsePublicKeyLine(text: string): PublicKeyLine {
  const refuse = (en: string, ru: string): never => {
    throw new LoreError("key_invalid", { reason: en, reason_ru: ru });
  };
  if (text.includes("PRIVATE KEY")) {
    refuse(
      "this is a private key; give the public one (the .pub file), and keep the private key secret",
      "это закрытый ключ; укажите открытый (файл .pub), а закрытый держите в секрете",
    );
  }
  if (text.length > KEY_LINE_MAX) {
    refuse(`over ${KEY_LINE_MAX} characters`, `длиннее ${KEY_LINE_MAX} символов`);
  }
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("#"));
  if (lines.length !== 1) {
    refuse(
      lines.length === 0 ? "the text is empty" : `${lines.length} lines; give one key`,
      lines.length === 0 ? "текст пуст" : `строк: ${lines.length}; укажите один ключ`,
    );
  }
  const [algorithm = "", publicKey = "", ...rest] = (lines[0] as string).split(/\s+/);
  if (!(KEY_ALGORITHMS as readonly string[]).includes(algorithm)) {
    refuse(
      `unsupported key type ${JSON.stringify(algorithm.slice(0, 40))}; supported: ${KEY_ALGORITHMS.join(", ")}`,
      `неподдерживаемый тип ключа ${JSON.stringify(algorithm.slice(0, 40))}; поддерживаются: ${KEY_ALGORITHMS.join(", ")}`,
    );
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(publicKey)) {
    refuse(
      `the ${algorithm} key data is malformed (not base64)`,
      `данные ключа ${algorithm} повреждены (не base64)`,
    );
  }
  const blob = Buffer.from(publicKey, "base64");
  const problem = keyBlobProblem(algorithm, blob);
  if (problem !== undefined) refuse(problem.en, problem.ru);
  return {
    algorithm,
    publicKey,
    blob,
    comment: rest.join(" "),
    fingerprint: fingerprintOf(blob),
  };
}

/**
 * Registers a user's public key.
 *
 * @param request - the user's name, the `.pub` text, `now` (ms).
 * @throws LoreError `user_not_found`, `key_invalid`, `key_exists` (a key belongs to one user).
 */
export async function addKey(
  store: ServerStore,
  request: { user: string; text: string; now: number },
): Promise<KeyRecord> {
  const user = await requireUser(store, request.user);
  const key = parsePublicKeyLine(request.text);
  return store.addKey({
    userId: user.id,
    algorithm: key.algorithm,
    publicKey: key.publicKey,
    fingerprint: key.fingerprint,
    comment: key.comment,
    createdAt: request.now,
  });
}

/** A key as `lore key list` shows it, with its user's name. */
export interface ListedKey extends KeyRecord {
  user: string;
}

/**
 * Lists keys, of one user or of all.
 *
 * @throws LoreError `user_not_found`.
 */
export async function listKeys(store: ServerStore, userName?: string): Promise<ListedKey[]> {
  const users = new Map<number, string>();
  let keys: KeyRecord[];
  if (userName !== undefined) {
    const user = await requireUser(store, userName);
    users.set(user.id, user.name);
    keys = await store.listKeys(user.id);
  } else {
    for (const user of await store.listUsers()) users.set(user.id, user.name);
    keys = await store.listKeys();
  }
  return keys.map((key) => ({ ...key, user: users.get(key.userId) ?? "" }));
}

/**
 * Removes a key by its id (`3`) or its fingerprint (`SHA256:…`).
 *
 * @returns the removed key.
 * @throws LoreError `key_not_found`.
 */
export async function removeKey(store: ServerStore, idOrFingerprint: string): Promise<KeyRecord> {
  const key = /^[1-9][0-9]{0,15}$/.test(idOrFingerprint)
    ? (await store.listKeys()).find((k) => k.id === Number(idOrFingerprint))
    : await store.findKeyByFingerprint(idOrFingerprint);
  if (key === undefined || !(await store.removeKey(key.id))) {
    throw new LoreError("key_not_found", { key: idOrFingerprint });
  }
  return key;
}

/**
 * The principal an SSH connection authenticated with this key acts as: the key's user
 * with the git scopes `repo:read` and `repo:write` (their level on each repository still
 * decides) and `tokenId` 0 (no token).
 *
 * @param fingerprint - `SHA256:…` of the offered key.
 * @returns undefined when no user has this key.
 */
export async function principalForKey(
  store: ServerStore,
  fingerprint: string,
): Promise<Principal | undefined> {
  const key = await store.findKeyByFingerprint(fingerprint);
  if (key === undefined) return undefined;
  const user = await store.getUserById(key.userId);
  if (user === undefined) return undefined;
  return keyPrincipal(user);
}

/**
 * The principal of a user who came by an SSH key: git's scopes only (`repo:read`,
 * `repo:write`; a key carries no knowledge or admin scope), no token (id 0).
 */
function keyPrincipal(user: { id: number; name: string; siteAdmin: boolean }): Principal {
  return {
    userId: user.id,
    user: user.name,
    siteAdmin: user.siteAdmin,
    scopes: ["repo:read", "repo:write"],
    tokenId: 0,
  };
}

/**
 * The principal of an SSH connection again, at each exec (seed 004, team server: the same
 * rights as over HTTP, where every request checks its token): the key must still be there
 * and still belong to the user the connection authenticated as, and that user must still
 * exist; their current site-admin flag counts. A key or user removed during a long-lived
 * connection refuses its next exec.
 *
 * @param fingerprint - `SHA256:…` of the key the connection authenticated with.
 * @param userId - the user it authenticated as.
 * @throws LoreError `key_not_found` (the key was removed, or now belongs to another user),
 *   `user_not_found` (the user was removed).
 */
export async function recheckKeyPrincipal(
  store: ServerStore,
  fingerprint: string,
  userId: number,
): Promise<Principal> {
  const key = await store.findKeyByFingerprint(fingerprint);
  if (key === undefined || key.userId !== userId) {
    throw new LoreError("key_not_found", { key: fingerprint });
  }
  const user = await store.getUserById(userId);
  if (user === undefined) throw new LoreError("user_not_found", { user: `#${userId}` });
  return keyPrincipal(user);
}
