/**
 * The configuration file reader: parsing and validating `lore.toml` (zod, smol-toml), the
 * trust file, and the forge's `auth.toml` path. Loaded by `load-config.ts` only when a
 * configuration file exists (`loadConfigReader`), so a command run with no file never
 * loads these modules.
 */
import { readFileSync } from "node:fs";
import { type ConfigFile, formatConfigProblem, parseConfig } from "../core/config/config.js";
import type { ConfigLayer } from "../core/config/config-layers.js";
import type { Lang } from "../core/errors/localized-text.js";
import { LoreError } from "../core/errors/lore-error.js";
import { knowledgeProblems } from "../core/roots/knowledge-roots.js";

export { authFilePath } from "./load-forge.js";
export { readTrustedFolders } from "./trust-store.js";

/**
 * Reads and validates one configuration file.
 *
 * @throws LoreError `config_invalid` (data: `{ file, problems }`): not valid, or cannot be
 *   read (e.g. no permission: the message says so, never `internal`).
 */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new LoreError(
      "config_invalid",
      { reason: `${path} cannot be read (${code})`, reason_ru: `${path} не читается (${code})` },
      { data: { file: path, problems: [] }, cause: error },
    );
  }
  const parsed = parseConfig(text);
  if (!parsed.value) {
    const reason = (lang: Lang) =>
      parsed.problems.map((p) => formatConfigProblem(p, lang, path)).join("; ");
    throw new LoreError(
      "config_invalid",
      { reason: reason("en"), reason_ru: reason("ru") },
      { data: { file: path, problems: parsed.problems } },
    );
  }
  return parsed.value;
}

/**
 * The merged `[knowledge]` must still be valid (ids unique across the files).
 *
 * @throws LoreError `config_invalid` naming the files and each problem.
 */
export function requireKnowledgeValid(file: ConfigFile, layers: readonly ConfigLayer[]): void {
  if (file.knowledge === undefined) return;
  const problems = knowledgeProblems(file.knowledge);
  if (problems.length === 0) return;
  const files = layers.map((l) => l.file).join(", ");
  const reason = (lang: Lang) =>
    problems
      .map((p) =>
        formatConfigProblem(
          { key: p.path.filter((x) => typeof x === "string").join("."), message: p.message },
          lang,
          files,
        ),
      )
      .join("; ");
  throw new LoreError(
    "config_invalid",
    { reason: reason("en"), reason_ru: reason("ru") },
    { data: { file: layers[layers.length - 1]?.file ?? "", problems: [] } },
  );
}
