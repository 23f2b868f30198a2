/**
 * The vendor's public keys that sign Lore licences (seed 004 "Интерфейс", editions): a
 * licence signed by one of these is a real one (`LicenceState.test` absent). The matching
 * private key never enters the repository; a licence signed by a key of the environment
 * variable `LORE_LICENSE_PUBLIC_KEY` instead is a test licence (see `licence.ts`).
 *
 * Ed25519, SPKI PEM. A key is added (never replaced in place) when the vendor rotates, so
 * licences signed by the older key keep working until they expire.
 */
export const VENDOR_LICENCE_KEYS: readonly string[] = [
  `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAXNsf6pIJF0Wthl9vdp82IqBw6c46FMObjiNuYOCvv88=
-----END PUBLIC KEY-----
`,
];
