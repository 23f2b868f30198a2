// biome-ignore lint/style/noRestrictedImports: signatures are computation, not I/O.
import { createPublicKey, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LoreError } from "../errors/lore-error.js";
import {
  canonicalLicenceJson,
  type LicenceFields,
  licencePublicKey,
  licenceState,
  makeLicenceKeyPair,
  parseLicence,
  signLicence,
  type TrustedKey,
} from "./licence.js";
import { VENDOR_LICENCE_KEYS } from "./licence-keys.js";

const FIELDS: LicenceFields = {
  lore_license: 1,
  edition: "pro",
  licensee: "Acme GmbH",
  issued: "2026-01-01",
  expires: "2026-12-31",
};

const pair = makeLicenceKeyPair();
const other = makeLicenceKeyPair();
const vendor: TrustedKey[] = VENDOR_LICENCE_KEYS.map((key) => ({ key, test: false }));
const withTest: TrustedKey[] = [...vendor, { key: pair.publicPem, test: true }];

/** The refusal a parse throws (fails the test when it does not throw). */
function refusal(text: string, keys: readonly TrustedKey[] = withTest): LoreError {
  try {
    parseLicence(text, keys, "/etc/lore/licence.json");
  } catch (error) {
    if (error instanceof LoreError) return error;
    throw error;
  }
  throw new Error("parsed");
}

const signed = () => signLicence(FIELDS, pair.privatePem);

describe("licence format", () => {
  it("signs the canonical JSON of every other field, keys sorted, no whitespace", () => {
    expect(canonicalLicenceJson({ b: 1, a: "x", c: null })).toBe('{"a":"x","b":1,"c":null}');
    const licence = signed();
    const message = Buffer.from(
      '{"edition":"pro","expires":"2026-12-31","issued":"2026-01-01","licensee":"Acme GmbH","lore_license":1}',
    );
    const expected = sign(null, message, pair.privatePem).toString("base64");
    expect(licence.signature).toBe(expected);
    expect(Buffer.from(licence.signature, "base64")).toHaveLength(64);
  });

  it("verifies a licence signed by the test key as a test licence, whatever the key order in the file", () => {
    const licence = signed();
    const reordered = JSON.stringify({
      signature: licence.signature,
      licensee: licence.licensee,
      expires: licence.expires,
      edition: licence.edition,
      issued: licence.issued,
      lore_license: 1,
    });
    const verified = parseLicence(reordered, withTest, "l.json");
    expect(verified.test).toBe(true);
    expect(licenceState(verified, "2026-06-01")).toEqual({
      edition: "pro",
      licensee: "Acme GmbH",
      expires: "2026-12-31",
      test: true,
    });
  });

  it("a licence never ending has no expires; Max is Max", () => {
    const licence = signLicence({ ...FIELDS, edition: "max", expires: null }, pair.privatePem);
    const state = licenceState(parseLicence(JSON.stringify(licence), withTest, "l"), "2099-01-01");
    expect(state).toEqual({ edition: "max", licensee: "Acme GmbH", test: true });
  });

  it("the built-in vendor keys are Ed25519 public keys", () => {
    expect(VENDOR_LICENCE_KEYS.length).toBeGreaterThan(0);
    for (const pem of VENDOR_LICENCE_KEYS) {
      expect(licencePublicKey(pem, "vendor").asymmetricKeyType).toBe("ed25519");
    }
  });

  it("a vendor key's licence is not a test one", () => {
    // The vendor's private key is not in the repository: a key object stands in for the
    // built-in key, with test false, to check that `test` follows the key that matched.
    const verified = parseLicence(
      JSON.stringify(signed()),
      [{ key: createPublicKey(pair.publicPem), test: false }],
      "l",
    );
    expect(licenceState(verified, "2026-06-01").test).toBeUndefined();
  });

  it("expires after its last day: on expires it is Pro, the day after Community with expired", () => {
    const verified = parseLicence(JSON.stringify(signed()), withTest, "l");
    expect(licenceState(verified, "2026-12-31").edition).toBe("pro");
    expect(licenceState(verified, "2027-01-01")).toEqual({
      edition: "community",
      licensee: "Acme GmbH",
      expires: "2026-12-31",
      expired: true,
      test: true,
    });
  });

  it.each([
    ["edition", "max"],
    ["licensee", "Acme GmbH "],
    ["expires", "2036-12-31"],
    ["expires", null],
    ["issued", "2025-01-01"],
  ])("refuses a licence whose %s was changed after signing", (field, value) => {
    const tampered = { ...signed(), [field]: value };
    const error = refusal(JSON.stringify(tampered));
    expect(error.code).toBe("license_invalid");
    expect(error.kind).toBe("invalid_input");
    expect(error.message).toContain("/etc/lore/licence.json");
    expect(error.message).toContain("signature does not match");
    expect(error.text.ru).toContain("подпись не сходится");
  });

  it("refuses a licence signed by another key, and a test licence without the test key", () => {
    const foreign = signLicence(FIELDS, other.privatePem);
    expect(refusal(JSON.stringify(foreign)).message).toContain("signature does not match");
    expect(refusal(JSON.stringify(signed()), vendor).message).toContain("signature does not match");
  });

  it.each([
    ["not JSON", "{lore_license: 1", "not JSON"],
    ["an array", "[1]", "not a JSON object"],
    ["null", "null", "not a JSON object"],
    ["empty", "", "not JSON"],
  ])("refuses %s", (_name, text, reason) => {
    const error = refusal(text);
    expect(error.code).toBe("license_invalid");
    expect(error.data).toEqual({ path: "/etc/lore/licence.json", reason });
  });

  it.each([
    [{ edition: "enterprise" }, '“edition” must be pro or max, not "enterprise"'],
    [{ edition: "community" }, '“edition” must be pro or max, not "community"'],
    [{ edition: "PRO" }, '“edition” must be pro or max, not "PRO"'],
    [{ lore_license: 2 }, "“lore_license” must be 1 (the format's version)"],
    [{ licensee: "  " }, "“licensee” must be a name of 1 to 200 characters"],
    [{ licensee: "x".repeat(201) }, "“licensee” must be a name of 1 to 200 characters"],
    [{ issued: "2026-02-30" }, "“issued” must be a date YYYY-MM-DD"],
    [{ issued: "1 Jan 2026" }, "“issued” must be a date YYYY-MM-DD"],
    [{ expires: "2026-13-01" }, "“expires” must be a date YYYY-MM-DD or null"],
    [{ expires: 20261231 }, "“expires” must be a date YYYY-MM-DD or null"],
    [{ expires: "2025-12-31" }, "“expires” (2025-12-31) is before “issued” (2026-01-01)"],
    [{ signature: "abc" }, "“signature” must be an Ed25519 signature: 64 bytes in base64"],
    [{ seats: 10 }, "unknown field “seats”"],
  ])("refuses the field %o", (change, reason) => {
    const error = refusal(JSON.stringify({ ...signed(), ...change }));
    expect(error.code).toBe("license_invalid");
    expect(error.data.reason).toBe(reason);
  });

  it("refuses a missing field", () => {
    const { licensee: _gone, ...rest } = signed();
    expect(refusal(JSON.stringify(rest)).data.reason).toBe("the field “licensee” is missing");
  });

  it("refuses to sign bad fields or with a key that is not a private Ed25519 key", () => {
    expect(() => signLicence({ ...FIELDS, issued: "2026-1-1" }, pair.privatePem)).toThrow(
      /“issued” must be a date/,
    );
    expect(() => signLicence(FIELDS, pair.publicPem)).toThrow(/not a PEM private key/);
  });
});
