/**
 * Loads the server's licence (seed 004 "Интерфейс", editions): the file `[server] license`
 * names (resolved against the configuration file's folder by `load-config.ts`), checked
 * against the built-in vendor keys and, for self-made and test licences, the key of
 * `LORE_LICENSE_PUBLIC_KEY` (PEM text, or the path of a PEM file).
 */
import { readFile } from "node:fs/promises";
import type { Edition, LicenceState } from "../core/editions/edition.js";
import {
  LICENCE_MAX_BYTES,
  licenceDay,
  licenceInvalid,
  licencePublicKey,
  licenceState,
  parseLicence,
  type TrustedKey,
  type VerifiedLicence,
} from "../core/editions/licence.js";
import { VENDOR_LICENCE_KEYS } from "../core/editions/licence-keys.js";

/** The environment {@link loadLicence} reads. */
export interface LicenceEnv {
  /** A test public key (Ed25519): PEM text, or the path of a PEM file. */
  LORE_LICENSE_PUBLIC_KEY?: string | undefined;
}

/** The environment variable of the test key. */
export const LICENCE_KEY_ENV = "LORE_LICENSE_PUBLIC_KEY";

/**
 * The edition a server runs.
 *
 * @param path - the licence file (absolute, or relative to the working folder); `undefined`
 *   = no licence: `{edition: "community"}`.
 * @param env - reads `LORE_LICENSE_PUBLIC_KEY`.
 * @param options - `now`: the clock, ms since the epoch (default `Date.now()`), for expiry.
 * @returns the licence's state; an expired licence gives `community` with `expired: true`
 *   (the caller logs a warning, see {@link licenceWarning}).
 * @throws LoreError `license_invalid` (CLI exit 2): the file cannot be read or is over
 *   64 KiB, its format is bad, no trusted key made its signature, or
 *   `LORE_LICENSE_PUBLIC_KEY` is neither an Ed25519 public key nor a file holding one.
 */
export async function loadLicence(
  path: string | undefined,
  env: LicenceEnv,
  options: { now?: number } = {},
): Promise<LicenceState> {
  if (path === undefined) return { edition: "community" };
  const verified = await verifyLicenceFile(path, env);
  return licenceState(verified, licenceDay(options.now ?? Date.now()));
}

/**
 * Reads and verifies a licence file, without looking at its expiry (`lore license show`).
 *
 * @throws LoreError `license_invalid` as {@link loadLicence}.
 */
export async function verifyLicenceFile(path: string, env: LicenceEnv): Promise<VerifiedLicence> {
  const keys = await trustedKeys(env);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw licenceInvalid(path, `cannot be read (${code})`, `не читается (${code})`);
  }
  if (bytes.length > LICENCE_MAX_BYTES) {
    throw licenceInvalid(
      path,
      `${bytes.length} bytes; a licence is at most ${LICENCE_MAX_BYTES}`,
      `${bytes.length} байт; лицензия — не больше ${LICENCE_MAX_BYTES}`,
    );
  }
  return parseLicence(bytes.toString("utf8"), keys, path);
}

/**
 * The keys a licence may be signed by: the vendor's, then the test key of
 * `LORE_LICENSE_PUBLIC_KEY` when set.
 *
 * @throws LoreError `license_invalid` when the variable holds no Ed25519 public key.
 */
export async function trustedKeys(env: LicenceEnv): Promise<TrustedKey[]> {
  const keys: TrustedKey[] = VENDOR_LICENCE_KEYS.map((key) => ({ key, test: false }));
  const value = env.LORE_LICENSE_PUBLIC_KEY?.trim();
  if (value === undefined || value === "") return keys;
  let pem = value;
  if (!value.startsWith("-----BEGIN")) {
    try {
      pem = await readFile(value, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw licenceInvalid(
        LICENCE_KEY_ENV,
        `it is neither PEM text nor a readable file: ${value} (${code})`,
        `это ни текст PEM, ни читаемый файл: ${value} (${code})`,
      );
    }
  }
  keys.push({ key: licencePublicKey(pem, LICENCE_KEY_ENV), test: true });
  return keys;
}

/**
 * The warning a server logs on start for an expired licence, or `undefined`.
 *
 * @param state - from {@link loadLicence}.
 * @param path - the licence file.
 */
export function licenceWarning(
  state: LicenceState,
  path: string,
  lang: "en" | "ru",
): string | undefined {
  if (state.expired !== true) return undefined;
  const edition: Edition = state.edition;
  return lang === "ru"
    ? `lore: лицензия ${path} (${state.licensee ?? ""}) истекла ${state.expires ?? ""}; сервер работает в редакции ${edition}`
    : `lore: the licence ${path} (${state.licensee ?? ""}) expired on ${state.expires ?? ""}; the server runs the ${edition} edition`;
}
