import { parseExpiry } from "../../core/access/parse-expiry.js";
import { parseScopes } from "../../core/access/parse-scopes.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { flag, printJson, stringOption } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import {
  ADMIN_MODES_HELP,
  expectPositionals,
  formatTime,
  onlyOptions,
  say,
  takeSubcommand,
  usageError,
  withAdmin,
} from "../server-admin.js";

const USAGE = [
  "lore token create <user> --scopes S[,S…] [--expires 30d] [--label L]",
  "lore token list [<user>] [--json]",
  "lore token revoke <id>",
];

/** `lore token create|list|revoke`: API tokens of the team server, on its database or over its API. */
export const tokenCommand: Command = {
  name: "token",
  summary: "team server: create (shown once), list and revoke API tokens",
  help: [
    ...USAGE.map((line, i) => `${i === 0 ? "Usage: " : "       "}${line}`),
    "",
    ...ADMIN_MODES_HELP,
    "",
    "A token is lore_ and 43 random characters. `create` prints it ALONE on stdout, once:",
    "the server keeps only its SHA-256 hash, so it cannot be shown again (revoke it and make",
    "a new one). Every API call and git request needs one, also on a public repository.",
    "",
    "Scopes: knowledge:read, knowledge:write (recall, open, knowledge endpoints),",
    "repo:read, repo:write (git fetch, push), admin. A token may carry fewer than the",
    "user's access level allows; both must allow a call.",
    "",
    "Options:",
    "  --scopes S,S   the token's scopes (create; required)",
    "  --expires D    lifetime: 90m, 12h, 30d (create; default: never)",
    "  --label L      a note to tell tokens apart: laptop, ci (create)",
    "  --json         print the tokens as JSON (list; never the secret)",
    "",
    "Exit codes: 0 done, 2 invalid input (unknown scope, bad lifetime), 3 no such user or",
    "token.",
  ].join("\n"),
  options: {
    scopes: { type: "string" },
    expires: { type: "string" },
    label: { type: "string" },
    json: { type: "boolean" },
  },
  async run(ctx, args) {
    const { sub, rest } = takeSubcommand(args, ["create", "list", "revoke"], USAGE);
    if (sub === "create") {
      onlyOptions(args, ["scopes", "expires", "label"], "token create");
      expectPositionals(rest, 1, 1, USAGE);
      const scopesText = stringOption(args, "scopes");
      if (scopesText === undefined) {
        throw usageError(USAGE, { en: "--scopes is required", ru: "нужен --scopes" });
      }
      const scopes = parseScopes(scopesText);
      const expires = stringOption(args, "expires");
      // A bad lifetime is refused here, before the server or the database is reached.
      if (expires !== undefined) parseExpiry(expires);
      const label = stringOption(args, "label");
      const created = await withAdmin(ctx, (admin) =>
        admin.createToken({
          user: rest[0] as string,
          scopes,
          ...(expires === undefined ? {} : { expires }),
          ...(label === undefined ? {} : { label }),
        }),
      );
      // The token alone on stdout (scripts capture it); what it is, on stderr.
      ctx.out(created.secret);
      const expiry = formatTime(created.token.expiresAt, ctx.lang);
      ctx.err(
        ctx.lang === "ru"
          ? `lore: токен ${created.token.id} для ${created.token.user}: ${scopes.join(",")}, истекает: ${expiry}; он показан один раз — сохраните его`
          : `lore: token ${created.token.id} for ${created.token.user}: ${scopes.join(",")}, expires: ${expiry}; shown once — store it now`,
      );
      return EXIT_CODES.ok;
    }
    return withAdmin(ctx, async (admin) => {
      if (sub === "list") {
        onlyOptions(args, ["json"], "token list");
        expectPositionals(rest, 0, 1, USAGE);
        const list = await admin.listTokens(rest[0]);
        if (flag(args, "json")) {
          // Never the hash: not a secret, but nothing a client needs either.
          printJson(ctx.out, list);
        } else if (list.length === 0) {
          say(ctx, "no tokens", "токенов нет");
        } else {
          for (const token of list) {
            const expires = formatTime(token.expiresAt, ctx.lang);
            const used = formatTime(token.lastUsedAt, ctx.lang);
            const label = token.label === "" ? "" : `  ${token.label}`;
            ctx.out(
              ctx.lang === "ru"
                ? `${token.id}  ${token.user}  ${token.prefix}…  ${token.scopes.join(",")}  истекает: ${expires}  использован: ${used}${label}`
                : `${token.id}  ${token.user}  ${token.prefix}…  ${token.scopes.join(",")}  expires: ${expires}  last used: ${used}${label}`,
            );
          }
        }
        return EXIT_CODES.ok;
      }
      onlyOptions(args, [], "token revoke");
      expectPositionals(rest, 1, 1, USAGE);
      const idText = rest[0] as string;
      if (!/^[1-9][0-9]{0,15}$/.test(idText)) {
        throw new LoreError("token_not_found", { token: idText });
      }
      await admin.revokeToken(Number(idText));
      say(ctx, `token ${idText} revoked`, `токен ${idText} отозван`);
      return EXIT_CODES.ok;
    });
  },
};
