import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import {
  ADMIN_MODES_HELP,
  expectPositionals,
  formatTime,
  onlyOptions,
  say,
  takeSubcommand,
  withAdmin,
} from "../server-admin.js";

const USAGE = [
  "lore key add <user> <file.pub> [--json]",
  "lore key list [<user>] [--json]",
  "lore key rm <id|fingerprint>",
];

/** Reads a `.pub` file (at most 64 KiB: a public key is one short line). */
async function readKeyFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    throw new LoreError("path_not_found", { path });
  }
  if (bytes.length > 65_536) {
    throw new LoreError("key_invalid", {
      reason: `${path} is ${bytes.length} bytes; a public key is one line`,
      reason_ru: `${path} — ${bytes.length} байт; открытый ключ — одна строка`,
    });
  }
  return bytes.toString("utf8");
}

/** `lore key add|list|rm`: SSH public keys of the team server's users (git over SSH). */
export const keyCommand: Command = {
  name: "key",
  summary: "team server: add, list and remove users' SSH public keys",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "Registers an OpenSSH public key (ssh-ed25519, ssh-rsa of at least 2048 bits,",
    "ecdsa-sha2-nistp256/384/521) for git over SSH; malformed key data or a smaller RSA key",
    "is key_invalid. Give the .pub file, never the private key. A key belongs to one user; it",
    "is shown by its fingerprint, as ssh-keygen -lf prints it (SHA256:…). Over SSH a key's",
    "user may fetch and push as their access level allows.",
    "",
    "Options:",
    "  --json   print the key (add) or the keys (list) as JSON",
    "",
    "Exit codes: 0 done, 2 not a public key, 3 no such user, file or key, 4 the key is",
    "already registered.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["add", "list", "rm"], USAGE);
    const text =
      sub === "add" && rest[1] !== undefined && rest.length === 2
        ? await readKeyFile(resolve(ctx.cwd, rest[1]))
        : "";
    return withAdmin(ctx, async (admin) => {
      if (sub === "add") {
        onlyOptions(args, ["json"], "key add");
        expectPositionals(rest, 2, 2, USAGE);
        const key = await admin.addKey({ user: rest[0] as string, text });
        if (flag(args, "json")) printJson(ctx.out, key);
        else {
          say(
            ctx,
            `key ${key.id} ${key.fingerprint} (${key.algorithm}) added for ${rest[0]}`,
            `ключ ${key.id} ${key.fingerprint} (${key.algorithm}) добавлен для ${rest[0]}`,
          );
        }
      } else if (sub === "list") {
        onlyOptions(args, ["json"], "key list");
        expectPositionals(rest, 0, 1, USAGE);
        const list = await admin.listKeys(rest[0]);
        if (flag(args, "json")) printJson(ctx.out, list);
        else if (list.length === 0) say(ctx, "no SSH keys", "ключей SSH нет");
        else {
          for (const key of list) {
            const comment = key.comment === "" ? "" : `  ${key.comment}`;
            ctx.out(
              `${key.id}  ${key.user}  ${key.fingerprint}  ${key.algorithm}  ${formatTime(key.createdAt, ctx.lang)}${comment}`,
            );
          }
        }
      } else {
        onlyOptions(args, [], "key rm");
        expectPositionals(rest, 1, 1, USAGE);
        const key = await admin.removeKey(rest[0] as string);
        say(
          ctx,
          `key ${key.id} ${key.fingerprint} removed`,
          `ключ ${key.id} ${key.fingerprint} удалён`,
        );
      }
      return EXIT_CODES.ok;
    });
  },
};
