import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { afterAll, describe, expect, it } from "vitest";
import {
  generateHostKey,
  HOST_KEY_FILE,
  hostKeyFingerprint,
  loadOrCreateHostKey,
} from "./host-key.js";

const root = mkdtempSync(join(tmpdir(), "lore-host-key-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the SSH host key", () => {
  it("every generated key pair is readable by ssh2 (its generator alone fails about 1 in 256)", () => {
    // 3,000 pairs: without the check, the chance that none is malformed is below 1e-5.
    for (let i = 0; i < 3_000; i++) {
      const pair = generateHostKey();
      expect(ssh2.utils.parseKey(pair.private)).not.toBeInstanceOf(Error);
      expect(ssh2.utils.parseKey(pair.public)).not.toBeInstanceOf(Error);
    }
  });

  it("is made once with mode 0600 and read back the same afterwards", () => {
    const data = join(root, "data");
    const first = loadOrCreateHostKey(data);
    expect(statSync(join(data, HOST_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(loadOrCreateHostKey(data)).toBe(first);
    expect(() => new ssh2.Server({ hostKeys: [first] }).close()).not.toThrow();
  });
});

describe("the host key's fingerprint", () => {
  it("is the one ssh-keygen -lf shows for the same key", () => {
    const data = join(root, "fingerprint");
    const key = loadOrCreateHostKey(data);
    const keygen = spawnSync("ssh-keygen", ["-lf", join(data, HOST_KEY_FILE)], {
      encoding: "utf8",
    });
    if (keygen.error !== undefined) {
      process.stderr.write(
        "host-key.test: ssh-keygen is absent — comparing with a known form only\n",
      );
      expect(hostKeyFingerprint(key)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      return;
    }
    // `256 SHA256:… comment (ED25519)`
    expect(keygen.stdout.split(" ")[1]).toBe(hostKeyFingerprint(key));
  });

  it("differs between two keys", () => {
    expect(hostKeyFingerprint(generateHostKey().private)).not.toBe(
      hostKeyFingerprint(generateHostKey().private),
    );
  });
});
