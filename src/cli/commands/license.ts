import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { LicenceState } from "../../core/editions/edition.js";
import {
  isLicenceDate,
  LICENSED_EDITIONS,
  type LicensedEdition,
  licenceDay,
  licencePrivateKey,
  licenceState,
  makeLicenceKeyPair,
  signLicence,
} from "../../core/editions/licence.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
import type { CliContext, Command, CommandArgs } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { expectPositionals, onlyOptions, say, takeSubcommand } from "../server-admin.js";

const USAGE = [
  "lore license keygen --out DIR",
  "lore license make --edition pro|max --licensee NAME [--expires YYYY-MM-DD] [--issued YYYY-MM-DD] --key PRIVATE.pem [--out FILE]",
  "lore license show [FILE] [--json]",
];

/** `lore license keygen|make|show`: licence keys and files of the editions (seed 004). */
export const licenseCommand: Command = {
  name: "license",
  summary: "editions: make a licence key pair, sign a licence, show a licence file",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    "A licence is a signed JSON file that [server] license names (relative to the",
    "configuration file); it gives lore serve the Pro edition (GET …/knowledge/stats/team and",
    "stats/dead) or Max (also PUT /api/v1/admin/knowledge/limits/…). No licence: Community.",
    "lore serve trusts licences signed by the vendor's built-in key, and those signed by the",
    "key of LORE_LICENSE_PUBLIC_KEY (PEM text or a file's path): test licences.",
    "",
    "  keygen   writes an Ed25519 key pair into DIR: private.pem (mode 0600; keep it secret)",
    "           and public.pem (for LORE_LICENSE_PUBLIC_KEY); refuses to overwrite either",
    "  make     signs a licence with PRIVATE.pem; writes it to FILE (mode 0644), else stdout",
    "  show     verifies FILE (default: [server] license) and prints its edition, licensee,",
    "           dates, whether a test key signed it, and the edition it gives today",
    "",
    "Options:",
    "  --out DIR|FILE       keygen: the folder (made when missing); make: the licence file",
    "  --edition pro|max    make: the edition",
    "  --licensee NAME      make: whom the licence is for (1 to 200 characters)",
    "  --expires DATE       make: the last day it is good (UTC); default: never ends",
    "  --issued DATE        make: the issue day; default: today (UTC)",
    "  --key PRIVATE.pem    make: the private key to sign with",
    "  --json               show: print {licence, state} as JSON",
    "",
    "Exit codes: 0 done, 2 bad option or not a valid licence or key (license_invalid),",
    "4 keygen would overwrite a key or make a licence file (file_exists).",
  ].join("\n"),
  options: {
    out: { type: "string" },
    edition: { type: "string" },
    licensee: { type: "string" },
    expires: { type: "string" },
    issued: { type: "string" },
    key: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["keygen", "make", "show"], USAGE);
    if (sub === "keygen") {
      onlyOptions(args, ["out"], "license keygen");
      expectPositionals(rest, 0, 0, USAGE);
      await keygen(ctx, resolve(ctx.cwd, required(args, "out", "keygen")));
    } else if (sub === "make") {
      onlyOptions(args, ["out", "edition", "licensee", "expires", "issued", "key"], "license make");
      expectPositionals(rest, 0, 0, USAGE);
      await make(ctx, args);
    } else {
      onlyOptions(args, ["json"], "license show");
      expectPositionals(rest, 0, 1, USAGE);
      await show(ctx, rest[0], flag(args, "json"));
    }
    return EXIT_CODES.ok;
  },
};

/** An option the subcommand needs. */
function required(args: CommandArgs, name: string, sub: string): string {
  const value = stringOption(args, name);
  if (value !== undefined && value.trim() !== "") return value;
  throw new LoreError("invalid_input", {
    reason: `lore license ${sub} needs --${name} (see lore license --help)`,
    reason_ru: `lore license ${sub} нужен --${name} (см. lore license --help)`,
  });
}

/** Writes `private.pem` (0600) and `public.pem` into `dir`, never over an existing file. */
async function keygen(ctx: CliContext, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const { privatePem, publicPem } = makeLicenceKeyPair();
  const privatePath = join(dir, "private.pem");
  const publicPath = join(dir, "public.pem");
  await writeNew(privatePath, privatePem, 0o600);
  // `writeFile`'s mode is masked by the umask; the private key must be 0600 whatever it is.
  await chmod(privatePath, 0o600);
  await writeNew(publicPath, publicPem, 0o644);
  say(
    ctx,
    `wrote ${privatePath} (mode 0600, keep it secret) and ${publicPath}\ntrust its licences: export LORE_LICENSE_PUBLIC_KEY=${publicPath}`,
    `записаны ${privatePath} (режим 0600, храните в тайне) и ${publicPath}\nчтобы доверять его лицензиям: export LORE_LICENSE_PUBLIC_KEY=${publicPath}`,
  );
}

/** Writes a file that must not exist yet. @throws LoreError `file_exists`. */
async function writeNew(path: string, text: string, mode: number): Promise<void> {
  try {
    await writeFile(path, text, { mode, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new LoreError("file_exists", { path }, { cause: error });
    }
    throw error;
  }
}

/** Signs a licence from the options; writes it to `--out` or stdout. */
async function make(ctx: CliContext, args: CommandArgs): Promise<void> {
  const edition = required(args, "edition", "make");
  if (!(LICENSED_EDITIONS as readonly string[]).includes(edition)) {
    throw new LoreError("invalid_input", {
      reason: `--edition must be pro or max, not “${edition}” (Community needs no licence)`,
      reason_ru: `--edition — pro или max, а не «${edition}» (для Community лицензия не нужна)`,
    });
  }
  const licensee = required(args, "licensee", "make");
  const issued = dateOption(args, "issued") ?? licenceDay(Date.now());
  const expires = dateOption(args, "expires") ?? null;
  const keyPath = resolve(ctx.cwd, required(args, "key", "make"));
  let pem: string;
  try {
    pem = await readFile(keyPath, "utf8");
  } catch {
    throw new LoreError("path_not_found", { path: keyPath });
  }
  const licence = signLicence(
    { lore_license: 1, edition: edition as LicensedEdition, licensee, issued, expires },
    licencePrivateKey(pem, keyPath),
  );
  const text = `${JSON.stringify(licence, null, 2)}\n`;
  const out = stringOption(args, "out");
  if (out === undefined) {
    ctx.out(text.trimEnd());
    return;
  }
  const path = resolve(ctx.cwd, out);
  await writeNew(path, text, 0o644);
  say(
    ctx,
    `wrote the ${edition} licence of ${licensee} to ${path}; name it in [server] license`,
    `лицензия ${edition} для ${licensee} записана в ${path}; укажите её в [server] license`,
  );
}

/** A `YYYY-MM-DD` option. @throws LoreError `invalid_input` for another form. */
function dateOption(args: CommandArgs, name: string): string | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (isLicenceDate(value)) return value;
  throw new LoreError("invalid_input", {
    reason: `--${name} must be a date YYYY-MM-DD, not “${value}”`,
    reason_ru: `--${name} — дата ГГГГ-ММ-ДД, а не «${value}»`,
  });
}

/** Verifies and prints a licence (default: `[server] license`). */
async function show(ctx: CliContext, file: string | undefined, json: boolean): Promise<void> {
  const path = file === undefined ? ctx.settings().server.license : resolve(ctx.cwd, file);
  if (path === undefined) {
    const state: LicenceState = { edition: "community" };
    if (json) printJson(ctx.out, { licence: null, state });
    else {
      say(
        ctx,
        "no licence ([server] license is not set): the Community edition",
        "лицензии нет ([server] license не задан): редакция Community",
      );
    }
    return;
  }
  const { verifyLicenceFile } = await import("../../main/load-licence.js");
  const verified = await verifyLicenceFile(path, process.env);
  const state = licenceState(verified, licenceDay(Date.now()));
  const { signature: _signature, ...licence } = verified.licence;
  if (json) {
    printJson(ctx.out, { path, licence, state });
    return;
  }
  const ru = ctx.lang === "ru";
  const never = ru ? "никогда" : "never";
  const rows: [string, string][] = [
    [ru ? "файл" : "file", path],
    [ru ? "редакция" : "edition", licence.edition],
    [ru ? "владелец" : "licensee", licence.licensee],
    [ru ? "выдана" : "issued", licence.issued],
    [ru ? "истекает" : "expires", licence.expires ?? never],
    [
      ru ? "подпись" : "signed by",
      verified.test
        ? ru
          ? "тестовый ключ (LORE_LICENSE_PUBLIC_KEY)"
          : "a test key (LORE_LICENSE_PUBLIC_KEY)"
        : ru
          ? "ключ поставщика"
          : "the vendor's key",
    ],
    [
      ru ? "сегодня" : "today",
      state.expired === true
        ? ru
          ? `истекла: редакция ${state.edition}`
          : `expired: the ${state.edition} edition`
        : ru
          ? `действует: редакция ${state.edition}`
          : `valid: the ${state.edition} edition`,
    ],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) ctx.out(`${k.padEnd(width)}  ${v}`);
}
