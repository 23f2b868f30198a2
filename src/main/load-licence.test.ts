import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeTestLicenceKey, type TestLicenceKey } from "../../test/helpers/test-licence.js";
import { LoreError } from "../core/errors/lore-error.js";
import { loadConfigReader, loadSettings } from "./load-config.js";
import { licenceWarning, loadLicence } from "./load-licence.js";

let key: TestLicenceKey;
let root: string;
beforeAll(loadConfigReader);
beforeEach(() => {
  key = makeTestLicenceKey();
  root = mkdtempSync(join(tmpdir(), "lore-load-licence-"));
});
afterEach(() => {
  rmSync(key.dir, { recursive: true, force: true });
  rmSync(root, { recursive: true, force: true });
});

async function refusal(run: Promise<unknown>): Promise<LoreError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoreError);
  return error as LoreError;
}

describe("loadLicence", () => {
  it("no licence file: Community, nothing else", async () => {
    expect(await loadLicence(undefined, key.env)).toEqual({ edition: "community" });
    expect(await loadLicence(undefined, {})).toEqual({ edition: "community" });
  });

  it("a Pro and a Max test licence, the key given as PEM text or as a path", async () => {
    const pro = key.write({ edition: "pro", licensee: "Acme", expires: "2030-01-31" });
    expect(await loadLicence(pro, key.env)).toEqual({
      edition: "pro",
      licensee: "Acme",
      expires: "2030-01-31",
      test: true,
    });
    const max = key.write({ edition: "max" });
    const byPath = { LORE_LICENSE_PUBLIC_KEY: key.publicPath };
    expect(await loadLicence(max, byPath)).toEqual({
      edition: "max",
      licensee: "Acme Test",
      test: true,
    });
  });

  it("an expired licence is Community with expired, and the warning says so", async () => {
    const path = key.write({ edition: "pro", issued: "2025-01-01", expires: "2025-12-31" });
    const lastDay = Date.parse("2025-12-31T23:59:59Z");
    expect((await loadLicence(path, key.env, { now: lastDay })).edition).toBe("pro");
    const state = await loadLicence(path, key.env, { now: lastDay + 1000 });
    expect(state).toEqual({
      edition: "community",
      licensee: "Acme Test",
      expires: "2025-12-31",
      expired: true,
      test: true,
    });
    expect(licenceWarning(state, path, "en")).toBe(
      `lore: the licence ${path} (Acme Test) expired on 2025-12-31; the server runs the community edition`,
    );
    expect(licenceWarning({ edition: "pro" }, path, "en")).toBeUndefined();
  });

  it("a test licence without LORE_LICENSE_PUBLIC_KEY is refused: only the vendor keys are trusted", async () => {
    const error = await refusal(loadLicence(key.write({ edition: "pro" }), {}));
    expect(error.code).toBe("license_invalid");
    expect(error.data.reason).toMatch(/^the signature does not match/);
  });

  it("a missing file, a folder, a file over 64 KiB and bad JSON are license_invalid", async () => {
    const missing = join(root, "nope.json");
    const gone = await refusal(loadLicence(missing, key.env));
    expect(gone.code).toBe("license_invalid");
    expect(gone.message).toBe(`the licence file ${missing} is not valid: cannot be read (ENOENT)`);
    expect(gone.text.ru).toBe(`файл лицензии ${missing} недействителен: не читается (ENOENT)`);
    mkdirSync(join(root, "dir"));
    expect((await refusal(loadLicence(join(root, "dir"), key.env))).data.reason).toBe(
      "cannot be read (EISDIR)",
    );
    writeFileSync(join(root, "big.json"), " ".repeat(65_537));
    expect((await refusal(loadLicence(join(root, "big.json"), key.env))).data.reason).toBe(
      "65537 bytes; a licence is at most 65536",
    );
    writeFileSync(join(root, "bad.json"), "lore_license = 1\n");
    expect((await refusal(loadLicence(join(root, "bad.json"), key.env))).data.reason).toBe(
      "not JSON",
    );
  });

  it("a LORE_LICENSE_PUBLIC_KEY that is no Ed25519 public key is license_invalid naming it", async () => {
    const path = key.write({ edition: "pro" });
    const missing = await refusal(
      loadLicence(path, { LORE_LICENSE_PUBLIC_KEY: join(root, "no.pem") }),
    );
    expect(missing.data.path).toBe("LORE_LICENSE_PUBLIC_KEY");
    expect(missing.data.reason).toMatch(/neither PEM text nor a readable file/);
    const priv = await refusal(loadLicence(path, { LORE_LICENSE_PUBLIC_KEY: key.privatePem }));
    expect(priv.data).toEqual({
      path: "LORE_LICENSE_PUBLIC_KEY",
      reason: "a private key; give the public key (public.pem)",
    });
    const rsa = (await import("node:crypto")).generateKeyPairSync("rsa", { modulusLength: 1024 });
    const notEd = await refusal(
      loadLicence(path, {
        LORE_LICENSE_PUBLIC_KEY: rsa.publicKey.export({ type: "spki", format: "pem" }).toString(),
      }),
    );
    expect(notEd.data.reason).toBe("not an Ed25519 public key");
    const junk = await refusal(
      loadLicence(path, { LORE_LICENSE_PUBLIC_KEY: "-----BEGIN PUBLIC KEY-----\nxx\n" }),
    );
    expect(junk.data.reason).toBe("not a PEM public key");
  });

  it("[server] license is resolved against the configuration file's folder", async () => {
    const conf = join(root, "conf");
    mkdirSync(conf);
    writeFileSync(join(conf, "lore.toml"), '[server]\nlicense = "keys/licence.json"\n');
    const settings = loadSettings({
      cwd: root,
      env: { HOME: root, LORE_USER: "t" },
      configPath: join(conf, "lore.toml"),
    });
    expect(settings.server.license).toBe(join(conf, "keys", "licence.json"));
    const none = loadSettings({ cwd: root, env: { HOME: root, LORE_USER: "t" } });
    expect(none.server.license).toBeUndefined();
  });
});
