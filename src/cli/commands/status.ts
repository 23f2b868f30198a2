import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";
import { plural } from "../plural.js";

const USAGE = "lore status [--json]";

/** `lore status`: the CLI mirror of `knowledge.status`. */
export const statusCommand: Command = {
  name: "status",
  summary: "the knowledge roots: id, kind, path, exists, writable, files",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Lists the configured knowledge roots ([knowledge] of lore.toml): id, kind",
    "(primary/named/read_only), path, whether the folder exists, whether it takes writes,",
    "and how many .md files its knowledge/ holds; then whether read-only routing is on.",
    "",
    "Options:",
    "  --json   print {roots, read_only_routing_enabled, registry, hot_file_exists}",
    "",
    "Exit codes: 0 printed, 2 bad configuration.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const lore = await ctx.openLore();
    const status = await lore.status();
    if (flag(args, "json")) {
      printJson(ctx.out, status);
      return EXIT_CODES.ok;
    }
    if (status.roots.length === 0) {
      ctx.out(
        ctx.lang === "ru"
          ? "корни знаний не настроены ([knowledge] в lore.toml; lore init --notes PATH)"
          : "no knowledge roots configured ([knowledge] in lore.toml; lore init --notes PATH)",
      );
    }
    for (const root of status.roots) {
      const state = root.exists ? plural(root.file_count, "file", "files") : "MISSING";
      ctx.out(
        `${root.id.padEnd(10)} ${root.kind.padEnd(9)} ${root.writable ? "rw" : "ro"}  ${state.padEnd(12)} ${root.path}`,
      );
    }
    ctx.out(`read_only_routing_enabled: ${status.read_only_routing_enabled}`);
    return EXIT_CODES.ok;
  },
};
