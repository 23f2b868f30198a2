import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { isLoreError } from "../../core/errors/lore-error.js";
import {
  readTrustedFolders,
  realFolder,
  setFolderTrust,
  trustFilePath,
} from "../../main/trust-store.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { CliContext, Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const TRUST_USAGE = "lore trust [dir] | lore trust --list [--json]";
const UNTRUST_USAGE = "lore untrust [dir]";

const t = (ctx: CliContext, en: string, ru: string) => (ctx.lang === "ru" ? ru : en);

/**
 * Reads the configuration for its `lang` only (ctx.lang follows it), so `lang = "ru"` in
 * lore.toml is honoured; a configuration that cannot be read does not stop trusting a
 * folder (the environment's language stays).
 */
function settleLanguage(ctx: CliContext): void {
  try {
    ctx.settings();
  } catch {
    // The language of the environment stays; trust does not depend on the configuration.
  }
}

/**
 * `lore trust [dir]`: trusts a folder's `lore.toml`, so that every key of it counts — the
 * forge (where the token goes), the server's address, the data paths — as if it were the
 * user's own file. Without trust a project file sets only `lang` and `index.repos` (inside
 * the folder). Kept by real path in `$XDG_DATA_HOME/lore/trusted-folders.json`;
 * `--list` prints the trusted folders.
 */
export const trustCommand: Command = {
  name: "trust",
  summary: "trust a folder's lore.toml (forge, server, data paths); --list",
  help: [
    `Usage: ${TRUST_USAGE}`,
    "",
    "A project's ./lore.toml sets only lang and index.repos (inside the project) unless",
    "you trust its folder: then every key counts, as in your own file — [forge] (where",
    "your token is sent), [server] (the address lore serve opens), the data paths",
    "([index] database, [projects] cache, [wiki] shared, [knowledge] roots). Trust is",
    "kept by the folder's real path in $XDG_DATA_HOME/lore/trusted-folders.json: a moved",
    "folder is not trusted until you trust it again. Undo with lore untrust.",
    "",
    "Options:",
    "  --list   print the trusted folders, one a line",
    "  --json   with --list: print {file, folders}",
    "",
    "Exit codes: 0 done, 2 not a folder or a bad trust file, 3 no such folder.",
  ].join("\n"),
  options: { list: { type: "boolean" }, json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 1, TRUST_USAGE);
    if (flag(args, "list")) {
      const trusted = readTrustedFolders(process.env);
      if (trusted.problem !== undefined) {
        ctx.err(
          t(
            ctx,
            `lore: the trust file ${trusted.problem.detail} is not honoured (${trusted.problem.reason}) [trust_file_ignored]`,
            `lore: файл доверия ${trusted.problem.detail} не учитывается (${trusted.problem.reason}) [trust_file_ignored]`,
          ),
        );
      }
      if (flag(args, "json")) {
        printJson(ctx.out, { file: trustFilePath(process.env), folders: trusted.folders });
      } else for (const folder of trusted.folders) ctx.out(folder);
      return EXIT_CODES.ok;
    }
    const folder = realFolder(args.positionals[0] ?? ".", ctx.cwd);
    const changed = setFolderTrust(process.env, folder, true);
    settleLanguage(ctx);
    ctx.out(
      changed
        ? t(ctx, `trusted: ${folder}`, `доверено: ${folder}`)
        : t(ctx, `already trusted: ${folder}`, `уже доверено: ${folder}`),
    );
    if (!existsSync(join(folder, "lore.toml"))) {
      ctx.err(
        t(
          ctx,
          `lore: ${folder} has no lore.toml yet; one written there will count in full`,
          `lore: в ${folder} пока нет lore.toml; записанный туда файл будет учитываться полностью`,
        ),
      );
    }
    return EXIT_CODES.ok;
  },
};

/**
 * `lore untrust [dir]`: stops trusting a folder (by its real path; a folder that no longer
 * exists is removed by the path given).
 */
export const untrustCommand: Command = {
  name: "untrust",
  summary: "stop trusting a folder's lore.toml",
  help: [
    `Usage: ${UNTRUST_USAGE}`,
    "",
    "Removes the folder (default: the current one) from the trusted folders: its",
    "lore.toml sets only lang and index.repos again. A folder that no longer exists is",
    "removed by the path given.",
    "",
    "Exit codes: 0 done (also when it was not trusted), 2 a bad trust file.",
  ].join("\n"),
  options: {},
  async run(ctx, args) {
    atMostPositionals(args, 1, UNTRUST_USAGE);
    const dir = args.positionals[0] ?? ".";
    let folder: string;
    try {
      folder = realFolder(dir, ctx.cwd);
    } catch (error) {
      if (!isLoreError(error) || error.code !== "path_not_found") throw error;
      folder = resolve(ctx.cwd, dir);
    }
    const changed = setFolderTrust(process.env, folder, false);
    settleLanguage(ctx);
    ctx.out(
      changed
        ? t(ctx, `untrusted: ${folder}`, `доверие снято: ${folder}`)
        : t(ctx, `was not trusted: ${folder}`, `и не было доверенной: ${folder}`),
    );
    return EXIT_CODES.ok;
  },
};
