import { mintEntryId } from "../../services/knowledge/mint-entry-id.js";
import { atMostPositionals } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore id";

/**
 * `lore id`: prints a fresh UUIDv7 (seed 004: an entry's `id` is a UUIDv7 that lives in the
 * file), for a person writing an entry by hand. The `invalid_id` diagnostic points here.
 */
export const idCommand: Command = {
  name: "id",
  summary: "print a fresh UUIDv7 for an entry's id",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Prints a fresh UUIDv7 (lower case), e.g. for the `id:` of an entry written by hand:",
    "  id: 019a3c4e-8f21-7b3d-9c4a-5e6f7a8b9c0d",
    "",
    "Exit codes: 0 printed, 2 an unexpected argument.",
  ].join("\n"),
  options: {},
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    ctx.out(mintEntryId());
    return EXIT_CODES.ok;
  },
};
