/**
 * Lore licences (seed 004 "Интерфейс", editions: «Разделение редакций выражено АДРЕСАМИ»):
 * the signed file `[server] license` names that gives a server the Pro or Max edition.
 *
 * The format, version 1 — one JSON object, exactly these fields:
 *
 * ```json
 * {"lore_license": 1, "edition": "pro", "licensee": "Acme GmbH", "issued": "2026-12-01",
 *  "expires": "2027-12-01", "signature": "<base64>"}
 * ```
 *
 * `edition` is `pro` or `max`; `issued` and `expires` are calendar dates (`YYYY-MM-DD`, UTC),
 * `expires` `null` for a licence that never ends; a licence is good through its `expires`
 * day. `signature` is the Ed25519 signature (64 bytes, base64) over the canonical JSON of
 * every other field: keys sorted, no whitespace, UTF-8 ({@link canonicalLicenceJson}).
 * A signature by a built-in vendor key (`licence-keys.ts`) makes a real licence; by a key of
 * `LORE_LICENSE_PUBLIC_KEY`, a test one (`LicenceState.test`).
 *
 * Pure: parsing, signing and verifying with `node:crypto`, no file or clock access (the
 * caller passes the text, the keys and the day).
 */
// biome-ignore lint/style/noRestrictedImports: signatures are computation, not I/O (no file, no clock, no network).
import * as crypto from "node:crypto";
import { LoreError } from "../errors/lore-error.js";
import type { Edition, LicenceState } from "./edition.js";

/** The licence format's version (`lore_license`). */
export const LICENCE_FORMAT = 1;

/** The editions a licence may name (Community needs none). */
export const LICENSED_EDITIONS = ["pro", "max"] as const;

/** An edition a licence may name. */
export type LicensedEdition = (typeof LICENSED_EDITIONS)[number];

/** Every field of a licence but the signature: what the signature covers. */
export interface LicenceFields {
  lore_license: typeof LICENCE_FORMAT;
  edition: LicensedEdition;
  /** Whom the licence is for (1–200 characters). */
  licensee: string;
  /** Issue date, `YYYY-MM-DD` (UTC). */
  issued: string;
  /** Last day it is good, `YYYY-MM-DD` (UTC); `null` = never ends. */
  expires: string | null;
}

/** A licence file's content. */
export interface LicenceFile extends LicenceFields {
  /** Ed25519 signature over {@link canonicalLicenceJson} of the other fields, base64. */
  signature: string;
}

/** A public key a licence may be signed by. */
export interface TrustedKey {
  /** Ed25519 public key (SPKI PEM text or a key object). */
  key: string | crypto.KeyObject;
  /** A test key (from `LORE_LICENSE_PUBLIC_KEY`): licences it signs are test licences. */
  test: boolean;
}

/** A licence whose format and signature were checked. */
export interface VerifiedLicence {
  licence: LicenceFile;
  /** Signed by a test key, not a vendor one. */
  test: boolean;
}

/** What a licence file may hold at most, in bytes (a licence is a few hundred). */
export const LICENCE_MAX_BYTES = 65_536;

const FIELDS = ["lore_license", "edition", "licensee", "issued", "expires", "signature"];
const LICENSEE_MAX = 200;
const SIGNATURE_BYTES = 64;

/** A licence refusal: `license_invalid` naming the file (or key source) and why. */
export function licenceInvalid(path: string, reason: string, reasonRu: string): LoreError {
  const pathRu = path === MADE_SOURCE ? MADE_SOURCE_RU : path;
  return new LoreError(
    "license_invalid",
    { path, path_ru: pathRu, reason, reason_ru: reasonRu },
    { data: { path, reason } },
  );
}

/** How a refusal names the licence `lore license make` is signing (it has no file yet). */
const MADE_SOURCE = "being made";
const MADE_SOURCE_RU = "в работе";

/**
 * The canonical JSON of a value, as signed: object keys sorted by UTF-16 code units, no
 * whitespace, strings as `JSON.stringify` writes them.
 */
export function canonicalLicenceJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalLicenceJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalLicenceJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isLicenceDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/** The UTC calendar day of an instant (ms since the epoch), `YYYY-MM-DD`. */
export function licenceDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Reads an Ed25519 public key.
 *
 * @param source - what to name in a refusal (a path or `LORE_LICENSE_PUBLIC_KEY`).
 * @throws LoreError `license_invalid` when `pem` is not an Ed25519 public key (a private
 *   key included).
 */
export function licencePublicKey(pem: string | crypto.KeyObject, source: string): crypto.KeyObject {
  if (typeof pem === "string" && pem.includes("PRIVATE KEY")) {
    // node derives the public key from a private one; a private key has no business here.
    throw licenceInvalid(
      source,
      "a private key; give the public key (public.pem)",
      "это закрытый ключ; укажите открытый (public.pem)",
    );
  }
  let key: crypto.KeyObject;
  try {
    key = typeof pem === "string" ? crypto.createPublicKey(pem) : pem;
  } catch {
    throw licenceInvalid(source, "not a PEM public key", "это не открытый ключ PEM");
  }
  if (key.type !== "public" || key.asymmetricKeyType !== "ed25519") {
    throw licenceInvalid(source, "not an Ed25519 public key", "это не открытый ключ Ed25519");
  }
  return key;
}

/**
 * Reads an Ed25519 private key (PKCS#8 PEM).
 *
 * @throws LoreError `license_invalid` when it is not one.
 */
export function licencePrivateKey(pem: string, source: string): crypto.KeyObject {
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(pem);
  } catch {
    throw licenceInvalid(source, "not a PEM private key", "это не закрытый ключ PEM");
  }
  if (key.asymmetricKeyType !== "ed25519") {
    throw licenceInvalid(source, "not an Ed25519 private key", "это не закрытый ключ Ed25519");
  }
  return key;
}

/** A fresh Ed25519 key pair: private key PKCS#8 PEM, public key SPKI PEM. */
export function makeLicenceKeyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/**
 * Signs licence fields.
 *
 * @param fields - checked as a licence's fields are (see {@link checkFields}).
 * @param privateKey - an Ed25519 private key (PKCS#8 PEM or key object).
 * @throws LoreError `license_invalid` for bad fields or a key that is not Ed25519.
 */
export function signLicence(
  fields: LicenceFields,
  privateKey: string | crypto.KeyObject,
): LicenceFile {
  const source = MADE_SOURCE;
  const key = typeof privateKey === "string" ? licencePrivateKey(privateKey, source) : privateKey;
  const { signature: _none, ...checked } = checkFields(
    fields as unknown as Record<string, unknown>,
    source,
    false,
  );
  const signature = crypto.sign(null, Buffer.from(canonicalLicenceJson(checked), "utf8"), key);
  return { ...checked, signature: signature.toString("base64") };
}

/**
 * Parses a licence file and checks its signature against the trusted keys (vendor keys
 * first).
 *
 * @param text - the file's content (UTF-8).
 * @param keys - the keys that may have signed it.
 * @param path - the file, named in refusals.
 * @throws LoreError `license_invalid` (data `{path, reason}`): not JSON, not an object, a
 *   missing, unknown or bad field (`lore_license` not 1, an edition other than `pro`/`max`,
 *   an empty licensee, a date that is not `YYYY-MM-DD`, `expires` before `issued`, a
 *   signature that is not 64 base64 bytes), or a signature no trusted key made.
 */
export function parseLicence(
  text: string,
  keys: readonly TrustedKey[],
  path: string,
): VerifiedLicence {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw licenceInvalid(path, "not JSON", "это не JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw licenceInvalid(path, "not a JSON object", "это не объект JSON");
  }
  const licence: LicenceFile = checkFields(value as Record<string, unknown>, path, true);
  const { signature, ...signed } = licence;
  const bytes = Buffer.from(signature, "base64");
  const message = Buffer.from(canonicalLicenceJson(signed), "utf8");
  for (const trusted of keys) {
    const key = licencePublicKey(trusted.key, trusted.test ? "LORE_LICENSE_PUBLIC_KEY" : path);
    if (crypto.verify(null, message, key, bytes)) return { licence, test: trusted.test };
  }
  const hint = keys.some((k) => k.test)
    ? { en: "", ru: "" }
    : {
        en: "; a test licence needs its public key in LORE_LICENSE_PUBLIC_KEY",
        ru: "; тестовой лицензии нужен её открытый ключ в LORE_LICENSE_PUBLIC_KEY",
      };
  throw licenceInvalid(
    path,
    `the signature does not match the licence's fields under any trusted key (a changed field, or a licence for another key)${hint.en}`,
    `подпись не сходится с полями лицензии ни по одному доверенному ключу (поле изменено или лицензия выписана другим ключом)${hint.ru}`,
  );
}

/**
 * The state a verified licence gives on a day: its edition, or Community with `expired`
 * once the day is past `expires`.
 *
 * @param verified - from {@link parseLicence}.
 * @param today - the UTC day, `YYYY-MM-DD` ({@link licenceDay}).
 */
export function licenceState(verified: VerifiedLicence, today: string): LicenceState {
  const { licence, test } = verified;
  const expired = licence.expires !== null && today > licence.expires;
  const edition: Edition = expired ? "community" : licence.edition;
  return {
    edition,
    licensee: licence.licensee,
    ...(licence.expires === null ? {} : { expires: licence.expires }),
    ...(expired ? { expired: true as const } : {}),
    ...(test ? { test: true as const } : {}),
  };
}

/** Checks every field (and, with `signed`, the signature's form); returns them typed. */
function checkFields(
  value: Record<string, unknown>,
  path: string,
  signed: boolean,
): LicenceFields & { signature: string } {
  const bad = (en: string, ru: string) => licenceInvalid(path, en, ru);
  const known = signed ? FIELDS : FIELDS.filter((f) => f !== "signature");
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw bad(`unknown field “${key}”`, `неизвестное поле «${key}»`);
  }
  for (const key of known) {
    if (!(key in value)) throw bad(`the field “${key}” is missing`, `нет поля «${key}»`);
  }
  if (value.lore_license !== LICENCE_FORMAT) {
    throw bad(
      `“lore_license” must be ${LICENCE_FORMAT} (the format's version)`,
      `«lore_license» должно быть ${LICENCE_FORMAT} (версия формата)`,
    );
  }
  const edition = value.edition;
  if (typeof edition !== "string" || !(LICENSED_EDITIONS as readonly string[]).includes(edition)) {
    throw bad(
      `“edition” must be pro or max, not ${JSON.stringify(edition)}`,
      `«edition» должно быть pro или max, а не ${JSON.stringify(edition)}`,
    );
  }
  const licensee = value.licensee;
  if (typeof licensee !== "string" || licensee.trim() === "" || licensee.length > LICENSEE_MAX) {
    throw bad(
      `“licensee” must be a name of 1 to ${LICENSEE_MAX} characters`,
      `«licensee» должно быть именем от 1 до ${LICENSEE_MAX} символов`,
    );
  }
  const { issued, expires } = value;
  if (typeof issued !== "string" || !isLicenceDate(issued)) {
    throw bad("“issued” must be a date YYYY-MM-DD", "«issued» должно быть датой ГГГГ-ММ-ДД");
  }
  if (expires !== null && (typeof expires !== "string" || !isLicenceDate(expires))) {
    throw bad(
      "“expires” must be a date YYYY-MM-DD or null",
      "«expires» должно быть датой ГГГГ-ММ-ДД или null",
    );
  }
  if (expires !== null && expires < issued) {
    throw bad(
      `“expires” (${expires}) is before “issued” (${issued})`,
      `«expires» (${expires}) раньше «issued» (${issued})`,
    );
  }
  const signature = value.signature;
  if (signed) {
    const ok =
      typeof signature === "string" &&
      /^[A-Za-z0-9+/]+={0,2}$/.test(signature) &&
      Buffer.from(signature, "base64").length === SIGNATURE_BYTES;
    if (!ok) {
      throw bad(
        "“signature” must be an Ed25519 signature: 64 bytes in base64",
        "«signature» должна быть подписью Ed25519: 64 байта в base64",
      );
    }
  }
  return {
    lore_license: LICENCE_FORMAT,
    edition: edition as LicensedEdition,
    licensee,
    issued,
    expires: expires as string | null,
    signature: signed ? (signature as string) : "",
  };
}
