import type { SecretLintCoreConfig } from "@secretlint/types";
import { isPlaceholderMatch } from "../../core/safety/placeholder-match.js";
import { scanView } from "../../core/safety/scan-view.js";
import {
  lineOfIndex,
  type SecretFinding,
  secretDetected,
} from "../../core/safety/secret-finding.js";
import { LORE_SECRET_RULES } from "./lore-secret-rules.js";

/**
 * The secret guard's scanner (seed 004, "Как знание выходит наружу": memory written by an
 * agent is checked before it is kept): secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend` 12.0.0 — AWS, GCP, private keys, GitHub,
 * GitLab, Slack, npm, SendGrid, OpenAI, Anthropic, Hugging Face, basic auth, database
 * connection strings and more, each with the vendor's published shape and its own
 * placeholder filters) run through `@secretlint/core`'s `lintSource`, with the AWS access
 * key id scan on (the preset's default leaves it off; AWS's documented example
 * `AKIAIOSFODNN7EXAMPLE` stays allowed), plus Lore's two rules (`LORE_SECRET_RULES`);
 * a match filled with `x`, `*` or `…` is a placeholder (`isPlaceholderMatch`) and dropped.
 * A maintained rule set, not a home-made list: vendors' token formats change and the
 * preset follows them, with tests against their false positives.
 *
 * An example is marked with secretlint's own comments, which the preset honours:
 * `<!-- secretlint-disable-next-line -->` above the line, or `secretlint-disable-line` on
 * it (`secretlint-disable` … `secretlint-enable` for a block).
 *
 * The library is loaded on the first scan (a dynamic import: commands that write nothing
 * never pay for it) and kept. Masked output is asked for, and only `{line, rule}` leaves
 * this function.
 *
 * @param written - the text as it would be written (UTF-8 string); its {@link scanView} is
 *   what is scanned.
 * @returns the findings in line order (one per rule and line); empty when clean.
 */
export async function scanSecrets(written: string): Promise<SecretFinding[]> {
  if (written.trim() === "") return [];
  // Zero-width characters, full-width forms and quote markers hide a secret from the rules,
  // not from a reader: scan the view (same lines) — `core/safety/scan-view.ts`.
  const text = scanView(written);
  const { lintSource, config } = await loadScanner();
  const result = await lintSource({
    source: { filePath: "lore-write.md", content: text, contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const seen = new Set<string>();
  const findings: SecretFinding[] = [];
  for (const message of result.messages) {
    if (isPlaceholderMatch(text.slice(message.range[0], message.range[1]))) continue;
    const line = message.loc?.start?.line ?? lineOfIndex(text, message.range[0]);
    const key = `${line}\u0000${message.ruleId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    findings.push({ line, rule: message.ruleId });
  }
  return findings.sort((a, b) => a.line - b.line || (a.rule < b.rule ? -1 : 1));
}

/**
 * Joins the texts of many files; each is followed by a line that re-enables reporting, so a
 * `secretlint-disable` block left open in one file never hides the next file's secrets,
 * and whose `<`, `!` and `-` end any match (a PEM body, a value) at the file's end.
 */
const FILE_BOUNDARY = "\n<!-- secretlint-enable -->\n";

/**
 * {@link scanSecrets} for many texts at once (the push report's files): one `lintSource`
 * pass over the texts joined by {@link FILE_BOUNDARY} — secretlint's cost is mostly per
 * call (about 1 ms each on a busy 2-core machine, against well under 0.1 ms a file in one
 * joined pass). A rule that reads a whole file as one JSON document (the preset's GCP
 * service-account JSON) cannot fire in a joined pass; a knowledge file is markdown with
 * frontmatter, never a bare JSON file, and its private key still fires the private-key
 * rule.
 *
 * @param written - the files' texts (each scanned as its {@link scanView}).
 * @returns one finding list per text, lines counted within that text.
 */
export async function scanSecretsMany(written: readonly string[]): Promise<SecretFinding[][]> {
  const texts = written.map(scanView);
  const out: SecretFinding[][] = texts.map(() => []);
  if (texts.every((text) => text.trim() === "")) return out;
  const starts: number[] = [];
  const firstLines: number[] = [];
  let offset = 0;
  let line = 1;
  for (const text of texts) {
    starts.push(offset);
    firstLines.push(line);
    offset += text.length + FILE_BOUNDARY.length;
    line += countNewlines(text) + countNewlines(FILE_BOUNDARY);
  }
  const joined = texts.map((text) => text + FILE_BOUNDARY).join("");
  const { lintSource, config } = await loadScanner();
  const result = await lintSource({
    source: { filePath: "lore-push.md", content: joined, contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const seen = new Set<string>();
  for (const message of result.messages) {
    const at = message.range[0];
    const file = lastAtOrBefore(starts, at);
    const text = texts[file] ?? "";
    if (at >= (starts[file] ?? 0) + text.length) continue; // in a boundary line
    if (isPlaceholderMatch(joined.slice(at, message.range[1]))) continue;
    const where =
      (message.loc?.start?.line ?? lineOfIndex(joined, at)) - (firstLines[file] ?? 1) + 1;
    const key = `${file} ${where} ${message.ruleId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out[file]?.push({ line: where, rule: message.ruleId });
  }
  for (const findings of out) {
    findings.sort((x, y) => x.line - y.line || (x.rule < y.rule ? -1 : 1));
  }
  return out;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) n++;
  return n;
}

/** The index of the last element of the ascending `starts` that is ≤ `at` (0 when none). */
function lastAtOrBefore(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Refuses a write whose text holds a credential: throws `secret_detected` naming the first
 * finding's line and rule (never the secret). Called before anything is written.
 *
 * @param text - the text as it would be written.
 * @throws LoreError `secret_detected` (`data: {line, rule}`).
 */
export async function refuseSecrets(text: string): Promise<void> {
  const [first] = await scanSecrets(text);
  if (first !== undefined) throw secretDetected(first);
}

type Scanner = {
  lintSource: typeof import("@secretlint/core").lintSource;
  config: SecretLintCoreConfig;
};
let scanner: Promise<Scanner> | undefined;

/** The library and the rule configuration, imported once per process. */
function loadScanner(): Promise<Scanner> {
  scanner ??= (async () => {
    const [{ lintSource }, { creator }] = await Promise.all([
      import("@secretlint/core"),
      import("@secretlint/secretlint-rule-preset-recommend"),
    ]);
    const config: SecretLintCoreConfig = {
      rules: [
        {
          id: creator.meta.id,
          rule: creator,
          rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
        },
        ...LORE_SECRET_RULES.map((rule) => ({ id: rule.meta.id, rule })),
      ],
    };
    return { lintSource, config };
  })();
  scanner.catch(() => {
    scanner = undefined;
  });
  return scanner;
}

/**
 * Starts loading the scanner (secretlint and its rules) now, for a scan to come: a caller
 * that waits on something else meanwhile (`pre-receive` on a slow `git diff-tree`) hides
 * the load's ~30 ms. Never throws and never rejects: a load that fails is retried, and its
 * error reported, by the scan itself.
 */
export function warmUpSecretScanner(): void {
  loadScanner().catch(() => undefined);
}
