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
  const pair = ssh2.utils.generateKeyPairSync("ed25519");
  try {
    // `wx`: two servers starting at once on one data folder keep the first one's key.
    writeFileSync(path, pair.private, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readFileSync(path, "utf8");
}
