import { shannonEntropy } from "./shannon-entropy.js";

/**
 * Lore's own rule beside secretlint's recommended preset, `lore/high-entropy-assignment`
 * (the preset has none): a value given to a name that says it is a secret —
 * `password = "…"`, `api_key: …`, `SECRET=…`, `"client_secret": "…"`, `--token=…` — that
 * looks generated rather than written. The preset recognises credentials by their
 * published shapes (a GitHub token's prefix, a PEM block); a password or a vendor key
 * with no known prefix has no shape, and only its name and its randomness give it away.
 *
 * The thresholds (tuned on the look-alike table of `scan-secrets.test.ts`): at least 12
 * characters; at least 3 of the four classes lower, upper, digit, other — or 2 classes and
 * 20 characters or more; Shannon entropy at least 3.0 bits a character (3.2 from 20
 * characters: a random hex key of 32 characters scores about 3.4–3.7, an English word
 * about 2.5–3.2). Never flagged: references and placeholders (`$X`, `${X}`, `${{ secrets.X }}`,
 * `<your-token>`, `%X%`, `process.env.X`, `config.auth.token`, a call `getToken()`),
 * values saying they are not real (`xxxx`, `***`, `…`, example, sample, dummy, fake,
 * placeholder, changeme, redacted, `your…`), lower-case words joined by `-` or `_`
 * (`my-app-signing-key`: a name) or upper-case ones joined by `_` (an environment variable's
 * name, `COPILOT_MCP_OPIK_API_KEY`), and names of things about a secret rather
 * than the secret (`token_id`, `password_hash`, `secret_name`, `api_key_url`, `…_file` …).
 */
export const HIGH_ENTROPY_ASSIGNMENT_RULE = "lore/high-entropy-assignment";

/** A span of the text holding a secret's value: UTF-16 offsets, `end` exclusive. */
export interface SecretSpan {
  start: number;
  end: number;
}

const SECRET_WORD =
  "(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?|auth)";
// name, optional closing quote / markdown emphasis, the assignment sign, optional opening quote, the value
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9])(?<name>[A-Za-z0-9_.-]*${SECRET_WORD}[A-Za-z0-9_.-]*)["'*_]*\\s*(?::=|=>|=|:)\\s*(?<quote>["'\`]?)(?<value>[^\\s"'\`,;]+)`,
  "gi",
);
const ABOUT_A_SECRET =
  /(?:^|[_.-])(?:ids?|hash(?:es)?|sha|digest|names?|urls?|uris?|paths?|files?|dir|types?|kinds?|length|len|count|limit|env|vars?|ttl|expiry|expires?|expiration|fields?|headers?|prefix|hints?|policy|endpoints?|mode|format|size|min|max|required|enabled|label|rotation|store|provider|scopes?)$/i;
const REFERENCE_START = /^(?:\$|%|<|\{|\[|\(|@|&|!|\\)/;
const REFERENCE = /^(?:process\.env|os\.environ|import\.meta|env\.|secrets\.|vault:|ENV\[)/i;
const NOT_REAL =
  /x{4,}|X{4,}|\*{3,}|\.{3}|…|example|sample|dummy|fake|placeholder|changeme|change[_-]me|redacted|^your|[_-]your|todo|\(|\)|>$/i;
// `config.auth.token`: segments of letters (a JWT's segments hold digits and are long).
const DOTTED_NAME = /^[A-Za-z_]{1,32}(?:\.[A-Za-z_]{1,32})+$/;
// Words joined by `-` or `_`: a name (`my-app-signing-key`), or an environment variable's
// name given as the value (`OPIK_API_KEY: COPILOT_MCP_OPIK_API_KEY`).
const JOINED_WORDS = /^(?:[a-z]+(?:[-_][a-z]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How many of the classes lower, upper, digit, other the value uses (1–4). */
function classes(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
}

/**
 * Whether a value given to a secret's name looks generated (the thresholds above).
 *
 * @param value - the assigned value, quotes removed.
 */
export function looksGenerated(value: string): boolean {
  if (value.length < 12) return false;
  if (REFERENCE_START.test(value) || REFERENCE.test(value) || NOT_REAL.test(value)) return false;
  if (DOTTED_NAME.test(value) || JOINED_WORDS.test(value) || UUID.test(value)) return false;
  const kinds = classes(value);
  if (kinds < 2 || (kinds === 2 && value.length < 20)) return false;
  return shannonEntropy(value) >= (value.length >= 20 ? 3.2 : 3.0);
}

/**
 * Finds the values of `lore/high-entropy-assignment` in a text (see the rule above). Pure.
 *
 * @param text - any text (a markdown entry, a config snippet).
 * @returns the values' spans in text order; empty when none.
 */
export function findHighEntropyAssignments(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(ASSIGNMENT)) {
    const { name = "", value: raw = "" } = match.groups ?? {};
    if (ABOUT_A_SECRET.test(name)) continue;
    // A trailing `)`/`]`/`}`/`.` ends a sentence or a bracket, not the secret.
    const value = raw.replace(/[)\]}.]+$/, "");
    if (!looksGenerated(value)) continue;
    const start = (match.index ?? 0) + match[0].length - raw.length;
    spans.push({ start, end: start + value.length });
  }
  return spans;
}
