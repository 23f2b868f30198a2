/**
 * Test licences (seed 004 editions), made as the README's "Editions" section says: a fresh
 * Ed25519 key pair whose public key goes into `LORE_LICENSE_PUBLIC_KEY`, and a licence file
 * signed by its private key. Licences the tests make are test licences (`test: true`).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
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

/**
 * Makes a `lore serve` spawned with `env` run `edition`: a test key whose public key goes
 * into `env.LORE_LICENSE_PUBLIC_KEY`, a licence file beside the user's configuration, and
 * `[server] license` naming it in `$XDG_CONFIG_HOME/lore/lore.toml` (written; the tests
 * using this helper have no other configuration there). Changes `env` in place.
 *
 * @returns the key (to make more licences) and the licence's path.
 */
export function useTestLicence(
  env: Record<string, string>,
  edition: LicensedEdition,
): { key: TestLicenceKey; path: string } {
  const key = makeTestLicenceKey();
  const folder = join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? key.dir, ".config"), "lore");
  mkdirSync(folder, { recursive: true });
  const path = key.write({ edition });
  writeFileSync(join(folder, "lore.toml"), `[server]\nlicense = ${JSON.stringify(path)}\n`);
  env.LORE_LICENSE_PUBLIC_KEY = key.publicPem;
  return { key, path };
}
