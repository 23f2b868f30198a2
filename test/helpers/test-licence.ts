/**
 * Test licences (seed 004 editions), made as the README's "Editions" section says: a fresh
 * Ed25519 key pair whose public key goes into `LORE_LICENSE_PUBLIC_KEY`, and a licence file
 * signed by its private key. Licences the tests make are test licences (`test: true`).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type LicenceFields,
  type LicensedEdition,
  licenceDay,
  makeLicenceKeyPair,
  signLicence,
} from "../../src/core/editions/licence.js";

/** A key pair in a temp folder and a way to sign licences with it. */
export interface TestLicenceKey {
  dir: string;
  privatePem: string;
  publicPem: string;
  /** The public key's file (`public.pem`). */
  publicPath: string;
  /** The private key's file (`private.pem`). */
  privatePath: string;
  /** `{LORE_LICENSE_PUBLIC_KEY: <public PEM text>}`. */
  env: { LORE_LICENSE_PUBLIC_KEY: string };
  /**
   * Writes a signed licence file and returns its path.
   * @param fields - overrides of `{edition, licensee: "Acme Test", issued: today, expires: null}`.
   */
  write(fields: Partial<LicenceFields> & { edition: LicensedEdition }, name?: string): string;
}

/** Makes a test key (see the module header). */
export function makeTestLicenceKey(): TestLicenceKey {
  const dir = mkdtempSync(join(tmpdir(), "lore-licence-"));
  const { privatePem, publicPem } = makeLicenceKeyPair();
  const publicPath = join(dir, "public.pem");
  const privatePath = join(dir, "private.pem");
  writeFileSync(publicPath, publicPem);
  writeFileSync(privatePath, privatePem, { mode: 0o600 });
  let count = 0;
  return {
    dir,
    privatePem,
    publicPem,
    publicPath,
    privatePath,
    env: { LORE_LICENSE_PUBLIC_KEY: publicPem },
    write(fields, name) {
      const licence = signLicence(
        {
          lore_license: 1,
          licensee: "Acme Test",
          issued: licenceDay(Date.now()),
          expires: null,
          ...fields,
        },
        privatePem,
      );
      count += 1;
      const path = join(dir, name ?? `licence-${count}-${fields.edition}.json`);
      writeFileSync(path, `${JSON.stringify(licence, null, 2)}\n`);
      return path;
    },
  };
}
