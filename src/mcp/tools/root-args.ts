import { z } from "zod";
import { coded } from "./coded-error.js";

/**
 * The root arguments every roots tool takes:
 * `knowledge_root_id` or `knowledge_path`, never both; neither = the primary root.
 */
export const rootArgsSchema = {
  knowledge_root_id: z
    .string(coded("invalid_input", "`knowledge_root_id` must be a root id string"))
    .max(100, coded("invalid_input", "`knowledge_root_id` is too long for a root id"))
    .optional()
    .describe(
      "The root to use: `group`, `public`, a named root, or `user`/`primary` (case does not " +
        "matter). Leave out for the primary root. Not together with `knowledge_path`.",
    ),
  knowledge_path: z
    .string(coded("invalid_input", "`knowledge_path` must be an absolute path string"))
    .max(4096, coded("invalid_input", "`knowledge_path` is too long"))
    .optional()
    .describe(
      "Instead of an id: the absolute path of a root folder (the one holding `knowledge/`). " +
        "Over HTTP only configured roots are accepted.",
    ),
};

/** The `file_path` argument: relative to the root's `knowledge/` folder. */
export const filePathSchema = z
  .string(coded("invalid_input", "`file_path` must be a string"))
  .min(1, coded("invalid_input", "`file_path` must not be empty"))
  .max(1024, coded("invalid_input", "`file_path` must be at most 1024 characters"))
  .describe(
    "Path relative to the root's `knowledge/` folder, e.g. `group/smoke-test-v1.md`. No `..`, " +
      "no absolute path, no drive letter.",
  );

/**
 * Copies the root arguments that are set.
 *
 * @param args - the tool's arguments.
 */
export function rootArgs(args: {
  knowledge_root_id?: string | undefined;
  knowledge_path?: string | undefined;
}): {
  knowledge_root_id?: string;
  knowledge_path?: string;
} {
  const out: { knowledge_root_id?: string; knowledge_path?: string } = {};
  if (args.knowledge_root_id !== undefined) out.knowledge_root_id = args.knowledge_root_id;
  if (args.knowledge_path !== undefined) out.knowledge_path = args.knowledge_path;
  return out;
}
