import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ssh2 from "ssh2";
import { afterAll, describe, expect, it } from "vitest";
import { generateHostKey, HOST_KEY_FILE, loadOrCreateHostKey } from "./host-key.js";

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
