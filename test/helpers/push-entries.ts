/**
 * Entry files the parse-on-push tests push (seed 004, "Устройство файла"): fixed ids, a
 * valid entry with an `on_query` contract, and one whose mechanism this version does not know.
 */

/** The knowledge folder of a repository. */
export const K = ".gitriver/knowledge";
export const ID_A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
export const ID_B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
export const ID_C = "0190f5a4-3b2e-7e21-9b22-3c4d5e6f7082";

/**
 * A valid entry file: `id`, the `extra` frontmatter lines, an `on_query` contract on
 * `deploy`, then `body`.
 */
export function entry(id: string, body: string, extra: string[] = []): string {
  return [
    "---",
    `id: ${id}`,
    ...extra,
    "contract:",
    "  - mechanism: on_query",
    "    params:",
    '      words: ["deploy"]',
    "---",
    "",
    body,
    "",
  ].join("\n");
}

/** An entry (id {@link ID_B}) whose only mechanism, `on_path`, this version does not know. */
export const ON_PATH = [
  "---",
  `id: ${ID_B}`,
  "contract:",
  "  - mechanism: on_path",
  "    params:",
  '      glob: "hooks/**"',
  "---",
  "",
  "The pre-receive hook must never commit.",
  "",
].join("\n");
