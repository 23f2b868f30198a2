import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ssh2 from "ssh2";

/** File name of the SSH server's host key in the data folder. */
export const HOST_KEY_FILE = "ssh_host_ed25519_key";

/**
 * The SSH server's host key (seed 004, team server: «SSH host key, generated on first
 * start»): `<data>/ssh_host_ed25519_key`, an Ed25519 key in OpenSSH format, made on first
 * use with mode 0600 (ssh2's `generateKeyPairSync('ed25519')`) and read afterwards. A key
 * file that group or others can read is tightened to 0600, as sshd insists on.
 *
 * @param dataDir - the server's data folder (made when missing, mode 0700).
 * @returns the private key text (OpenSSH format).
 * @throws Error from the file system when the folder or file cannot be made or read.
 */
export function loadOrCreateHostKey(dataDir: string): string {
  const path = join(dataDir, HOST_KEY_FILE);
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing !== undefined) {
    if ((existing.mode & 0o077) !== 0) chmodSync(path, 0o600);
    return readFileSync(path, "utf8");
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pair = generateHostKey();
  try {
    // `wx`: two servers starting at once on one data folder keep the first one's key.
    writeFileSync(path, pair.private, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readFileSync(path, "utf8");
}

/** Most tries for a key pair ssh2 can read back (each fails with odds of about 1 in 256). */
const KEY_TRIES = 16;

/**
 * An Ed25519 key pair in OpenSSH format that ssh2 itself can parse. ssh2 1.17's
 * `generateKeyPairSync("ed25519")` strips the leading zero bytes of the public key, so about
 * one pair in 256 is malformed ("Malformed OpenSSH private key" when the server starts;
 * mscdex/ssh2 issues 1390, 1513): such a pair is thrown away and another made.
 *
 * @throws Error when {@link KEY_TRIES} pairs in a row are unreadable (never seen).
 */
export function generateHostKey(): { private: string; public: string } {
  for (let i = 0; i < KEY_TRIES; i++) {
    const pair = ssh2.utils.generateKeyPairSync("ed25519");
    const readable =
      !(ssh2.utils.parseKey(pair.private) instanceof Error) &&
      !(ssh2.utils.parseKey(pair.public) instanceof Error);
    if (readable) return pair;
  }
  throw new Error(`no readable Ed25519 host key in ${KEY_TRIES} tries`);
}

/**
 * The fingerprint OpenSSH shows for a host key (`ssh-keygen -lf`, and `ssh` on a first
 * connection): `SHA256:` and the unpadded base64 of the SHA-256 of the public key blob.
 * `lore serve` prints it so a user can check the key before accepting it.
 *
 * @param privateKey - the host key's private key text (OpenSSH format, as
 *   {@link loadOrCreateHostKey} returns it).
 * @returns e.g. `SHA256:kT3y…` (43 characters after the prefix for SHA-256).
 * @throws Error when the text is not a key ssh2 can parse.
 */
export function hostKeyFingerprint(privateKey: string): string {
  const key = ssh2.utils.parseKey(privateKey);
  if (key instanceof Error) throw key;
  const parsed = Array.isArray(key) ? key[0] : key;
  if (parsed === undefined) throw new Error("no key in the host key file");
  const digest = createHash("sha256").update(parsed.getPublicSSH()).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}
