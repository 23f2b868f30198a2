import { parse as parseToml, TomlError } from "smol-toml";
import { z } from "zod";
import type { Lang, LocalizedText } from "../errors/localized-text.js";
import { type KnowledgeConfig, knowledgeProblems } from "../roots/knowledge-roots.js";
import { nearestKey } from "../text/nearest-key.js";

/**
 * The configuration file model (`lore.toml`), as written, before defaults are applied.
 * Every key is optional; `main/load-config.ts` fills the defaults from the environment.
 * Used by the interfaces (`lore serve`, `lore mcp`) and the knowledge roots (seed 003).
 */
export interface ConfigFile {
  /** Who counts as the reader of shown/read counters. Default: env `LORE_USER`, else the OS user. */
  user?: string;
  /** The language of messages. Default: `LORE_LANG`, else the locale (`pickLang`). */
  lang?: Lang;
  index?: {
    /** The SQLite index file. Default: `$XDG_DATA_HOME/lore/index.db` (env `LORE_DB` wins). */
    database?: string;
    /** Repositories `lore mcp` / `lore serve` index at start; relative to the config file. */
    repos?: string[];
  };
  server?: {
    /** Address `lore serve` listens on. Default: `127.0.0.1`. */
    host?: string;
    /** TCP port of `lore serve`; `0` picks a free one. Default: `7377`. */
    port?: number;
    /**
     * The team server's data folder (seed 004, team server): bare repositories under
     * `repos/<owner>/<name>.git`, the server database, the SSH host key. Relative to the
     * config file. Default: `$XDG_DATA_HOME/lore/server`.
     */
    data?: string;
    /** TCP port of the built-in SSH server (git over SSH); `0` = off. Default: `7378`. */
    ssh_port?: number;
    /**
     * The team server a client uses (`lore mcp` drafts, `lore draft`, `lore deliver`,
     * `lore mr`), e.g. `http://lore.example.com:7377`; its token is `[server] token` of
     * `auth.toml`. Default: none (local mode).
     */
    url?: string;
    /**
     * The server's licence file (seed 004, editions): a signed file naming the edition
     * (`pro`, `max`); relative to the config file. Default: none (Community).
     */
    license?: string;
    /** Calls of `POST …/knowledge/shown` a token may make per minute; `0` = no limit. Default: `600`. */
    shown_rate_limit?: number;
    /**
     * The team server's database: absent = SQLite in the data folder (the embedded
     * default); `postgres://user@host:5432/db` (or `postgresql://`) = PostgreSQL, shared
     * by every `lore serve` that names it.
     */
    database?: string;
    /** Git processes (HTTP requests and SSH sessions) running at once. Default: `32`. */
    git_max_processes?: number;
    /** Git requests waiting for a slot; one more is refused with `server_busy`. Default: `256`. */
    git_max_queue?: number;
    /** Time limit of one git process, ms; past it the process group is killed. Default: `600000`. */
    git_timeout_ms?: number;
  };
  /** Agent hooks (`lore hook claude-code|codex|cursor`): how they surface knowledge. */
  hooks?: {
    /** The hard time budget of one hook run, ms, node start included; past it the hook answers with what it has. Default: `300`. */
    budget_ms?: number;
  };
  /** Load receipts: the record of what every recall surfaced and why. */
  receipts?: {
    /** Days a receipt is kept before it is pruned. Default: `30`. */
    keep_days?: number;
  };
  /**
   * Knowledge roots (seed 003): `primary`, `[knowledge.roots]`,
   * `[[knowledge.read_only]]`; see `core/roots/knowledge-roots.ts`.
   */
  knowledge?: KnowledgeConfig;
  /** This machine's name, written to `cache.json` as `machine` (federation, seeds 000 and 001). Default: the host name. */
  machine?: string;
  /** Where the user's repositories live (federation, “Forge adapters”). Default: none (federation tools disabled). */
  forge?: {
    /** `local` (a folder of git repositories, the embedded default) or `gitea`. Default: `local` when `root` is set, `gitea` when `url` is set. */
    kind?: "local" | "gitea";
    /** `local`: the folder of repositories (bare or clones); relative to the config file. */
    root?: string;
    /** `gitea`: the server address, e.g. `https://git.example.com`; the token is read from `auth.toml`. */
    url?: string;
    /** `gitea`: the owner of the repositories. Default: the token's user. */
    user?: string;
  };
  wiki?: {
    /** The shared `projects-wiki` folder (its root holds `index.md`); relative to the config file. */
    shared?: string;
  };
  projects?: {
    /** The sync cache file. Default: `$XDG_DATA_HOME/lore/cache.json`. */
    cache?: string;
  };
  mcp?: {
    /**
     * How `lore mcp` / `lore serve` name their tools: `underscore` (default), `dotted` or
     * `seed` (see `mcp/tool-names.ts`); `--tool-names` wins.
     */
    tool_names?: "underscore" | "dotted" | "seed";
  };
}

/** One problem found in a configuration file: where, which key, and what is wrong. */
export interface ConfigProblem {
  /** Dotted key, e.g. `server.port`; empty when the problem is not tied to a key. */
  key: string;
  /** 1-based line in the file, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** The reason, in English and Russian. */
  message: LocalizedText;
}

/** The outcome of {@link parseConfig}: `value` is absent when any problem was found. */
export interface ConfigParseResult {
  value?: ConfigFile;
  problems: ConfigProblem[];
}

export { CONFIG_DEFAULTS } from "./config-defaults.js";

/** The keys this version knows, by table (`knowledge.roots` holds any root id). */
const KNOWN_CONFIG_KEYS: Record<string, readonly string[]> = {
  "": [
    "user",
    "lang",
    "index",
    "server",
    "knowledge",
    "machine",
    "forge",
    "wiki",
    "projects",
    "mcp",
    "hooks",
    "receipts",
  ],
  mcp: ["tool_names"],
  forge: ["kind", "root", "url", "user"],
  wiki: ["shared"],
  projects: ["cache"],
  index: ["database", "repos"],
  server: [
    "host",
    "port",
    "data",
    "ssh_port",
    "url",
    "license",
    "shown_rate_limit",
    "database",
    "git_max_processes",
    "git_max_queue",
    "git_timeout_ms",
  ],
  hooks: ["budget_ms"],
  receipts: ["keep_days"],
  knowledge: ["primary", "roots", "read_only"],
  "knowledge.read_only": ["id", "path"],
};

const PATH_HINT: LocalizedText = {
  en: "; use single quotes ('C:\\x') or double each backslash (\"C:\\\\x\")",
  ru: "; используйте одинарные кавычки ('C:\\x') или удвойте обратную косую черту (\"C:\\\\x\")",
};

/**
 * True when the text holds a control character — C0, DEL or C1 (what `\t`, `\n`, `\x86`
 * escapes make of a Windows path in double quotes).
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

// A control character in a path means a backslash became an escape (knowledge roots: TOML paths).
const pathString = z
  .string()
  .min(1)
  .refine((value) => !hasControlCharacter(value), { params: { lore: "path_control" } });

/** The whole-number keys and their ranges, inclusive: the schema and its messages use these. */
const NUMBER_RANGES = {
  "server.port": [0, 65535],
  "server.ssh_port": [0, 65535],
  "server.shown_rate_limit": [0, 1_000_000],
  "server.git_max_processes": [1, 1024],
  "server.git_max_queue": [0, 100_000],
  "server.git_timeout_ms": [1000, 86_400_000],
  "hooks.budget_ms": [10, 60_000],
  "receipts.keep_days": [1, 3650],
} as const satisfies Record<string, readonly [number, number]>;

/** A whole number in the range of one key of {@link NUMBER_RANGES}. */
const wholeNumber = (key: keyof typeof NUMBER_RANGES) =>
  z.number().int().min(NUMBER_RANGES[key][0]).max(NUMBER_RANGES[key][1]);

const schema = z.strictObject({
  user: z.string().min(1).optional(),
  lang: z.enum(["en", "ru"]).optional(),
  index: z
    .strictObject({ database: pathString.optional(), repos: z.array(pathString).optional() })
    .optional(),
  server: z
    .strictObject({
      host: z.string().min(1).optional(),
      port: wholeNumber("server.port").optional(),
      data: pathString.optional(),
      ssh_port: wholeNumber("server.ssh_port").optional(),
      url: z.url({ protocol: /^https?$/ }).optional(),
      license: pathString.optional(),
      shown_rate_limit: wholeNumber("server.shown_rate_limit").optional(),
      database: z
        .string()
        .regex(/^postgres(ql)?:\/\/\S+$/)
        .optional(),
      git_max_processes: wholeNumber("server.git_max_processes").optional(),
      git_max_queue: wholeNumber("server.git_max_queue").optional(),
      git_timeout_ms: wholeNumber("server.git_timeout_ms").optional(),
    })
    .optional(),
  hooks: z.strictObject({ budget_ms: wholeNumber("hooks.budget_ms").optional() }).optional(),
  receipts: z.strictObject({ keep_days: wholeNumber("receipts.keep_days").optional() }).optional(),
  knowledge: z
    .strictObject({
      primary: pathString.optional(),
      roots: z.record(z.string(), pathString).optional(),
      read_only: z.array(z.strictObject({ id: z.string().min(1), path: pathString })).optional(),
    })
    .optional(),
  machine: z.string().min(1).optional(),
  forge: z
    .strictObject({
      kind: z.enum(["local", "gitea"]).optional(),
      root: pathString.optional(),
      url: z
        .string()
        .regex(/^https?:\/\/[^\s]+$/)
        .optional(),
      user: z.string().min(1).optional(),
    })
    .optional(),
  wiki: z.strictObject({ shared: pathString.optional() }).optional(),
  projects: z.strictObject({ cache: pathString.optional() }).optional(),
  mcp: z
    .strictObject({ tool_names: z.enum(["underscore", "dotted", "seed"]).optional() })
    .optional(),
});

/**
 * Parses and validates the text of a `lore.toml`. Pure; never throws.
 *
 * Problems: TOML syntax (line and column from smol-toml, with a hint for Windows paths in
 * double quotes), unknown keys (named with the nearest known key), values of the wrong
 * type or range, and paths holding control characters (knowledge roots: TOML paths). Each problem
 * names its key and line.
 *
 * @param text - the file's text (UTF-8 decoded).
 * @returns the model, or the problems (then `value` is absent).
 */
export function parseConfig(text: string): ConfigParseResult {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (error) {
    return { problems: [tomlProblem(text, error)] };
  }
  const result = schema.safeParse(raw);
  if (result.success) {
    const value = result.data as ConfigFile;
    const rootProblems = value.knowledge === undefined ? [] : knowledgeProblems(value.knowledge);
    if (rootProblems.length === 0) return { value, problems: [] };
    return {
      problems: rootProblems.map((p) => ({
        key: formatKey(p.path.map(String)),
        ...locateKey(text, p.path.map(String)),
        message: p.message,
      })),
    };
  }
  const problems: ConfigProblem[] = [];
  for (const issue of result.error.issues) problems.push(...issueProblems(text, issue));
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { problems };
}

/**
 * Formats one problem as a line: `file:line: message (key)`.
 *
 * @param problem - the problem.
 * @param lang - the message language.
 * @param source - the file name to show; default `lore.toml`.
 */
export function formatConfigProblem(
  problem: ConfigProblem,
  lang: Lang,
  source = "lore.toml",
): string {
  const where = problem.line === undefined ? source : `${source}:${problem.line}`;
  const key = problem.key
    ? lang === "ru"
      ? ` (ключ ${problem.key})`
      : ` (key ${problem.key})`
    : "";
  return `${where}: ${problem.message[lang]}${key}`;
}

function tomlProblem(text: string, error: unknown): ConfigProblem {
  if (!(error instanceof TomlError)) {
    const reason = error instanceof Error ? error.message : String(error);
    return { key: "", message: { en: reason, ru: reason } };
  }
  const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "");
  const hint = /escape/i.test(reason) ? PATH_HINT : { en: "", ru: "" };
  const key = keyOnLine(text, error.line) ?? "";
  return {
    key,
    line: error.line,
    column: error.column,
    message: {
      en: `TOML syntax: ${reason}${hint.en}`,
      ru: `синтаксис TOML: ${reason}${hint.ru}`,
    },
  };
}

type Issue = z.core.$ZodIssue;

function issueProblems(text: string, issue: Issue): ConfigProblem[] {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const table = path.filter((part) => !/^\d+$/.test(part)).join(".");
    return issue.keys.map((name) => {
      const key = table ? `${table}.${name}` : name;
      const nearest = nearestKey(name, KNOWN_CONFIG_KEYS[table] ?? []);
      const message: LocalizedText = nearest
        ? {
            en: `key “${key}” is not known, the nearest known is “${nearest}”`,
            ru: `ключ „${key}“ не известен, ближайший известный — „${nearest}“`,
          }
        : {
            en: `key “${key}” is not known, and no known key is near it`,
            ru: `ключ „${key}“ не известен, похожих нет`,
          };
      return { key, ...locateKey(text, [...path, name]), message };
    });
  }
  const key = formatKey(path);
  return [{ key, ...locateKey(text, path), message: valueMessage(key, issue) }];
}

/** A key path as people write it: `knowledge.read_only[1].path`. */
function formatKey(path: readonly string[]): string {
  return path.reduce(
    (out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    "",
  );
}

const TYPE_WORDS: Record<string, LocalizedText> = {
  string: { en: "a string", ru: "строкой" },
  number: { en: "a number", ru: "числом" },
  array: { en: "a list", ru: "списком" },
  object: { en: "a table", ru: "таблицей" },
  record: { en: "a table", ru: "таблицей" },
};

function valueMessage(key: string, issue: Issue): LocalizedText {
  switch (issue.code) {
    case "invalid_type": {
      const word = TYPE_WORDS[issue.expected] ?? { en: issue.expected, ru: issue.expected };
      return { en: `“${key}” must be ${word.en}`, ru: `«${key}» должен быть ${word.ru}` };
    }
    case "invalid_value": {
      const list = issue.values.map(String).join(", ");
      return {
        en: `“${key}” must be one of: ${list}`,
        ru: `«${key}» должен быть одним из: ${list}`,
      };
    }
    case "too_small":
    case "too_big":
      if (issue.origin === "string")
        return { en: `“${key}” must not be empty`, ru: `«${key}» не должен быть пустым` };
      {
        const [min, max] = NUMBER_RANGES[key as keyof typeof NUMBER_RANGES] ?? [0, 65535];
        return {
          en: `“${key}” must be a whole number from ${min} to ${max}`,
          ru: `«${key}» должен быть целым числом от ${min} до ${max}`,
        };
      }
    case "custom":
      return {
        en: `“${key}” is a path holding a control character${PATH_HINT.en}`,
        ru: `«${key}» — путь с управляющим символом${PATH_HINT.ru}`,
      };
    default:
      return { en: `“${key}”: ${issue.message}`, ru: `«${key}»: ${issue.message}` };
  }
}

interface KeySite {
  /** Dotted key path, array indexes dropped. */
  path: string[];
  line: number;
  column: number;
}

/**
 * Finds where a key is written: the line whose table + dotted key equals `path` (array
 * indexes ignored), or where the nearest enclosing table is defined. An index followed by
 * a key (an array of tables, `read_only[1].id`) picks that occurrence, else the first.
 */
function locateKey(text: string, path: readonly string[]): { line?: number; column?: number } {
  const wanted = path.filter((part) => !/^\d+$/.test(part));
  const indexAt = path.findIndex((part) => /^\d+$/.test(part));
  const occurrence = indexAt >= 0 && indexAt < path.length - 1 ? Number(path[indexAt]) : 0;
  const sites = scanKeySites(text);
  for (let length = wanted.length; length > 0; length--) {
    const prefix = wanted.slice(0, length).join("\u0000");
    const found = sites.filter((s) => s.path.join("\u0000") === prefix);
    const site = found[Math.min(occurrence, found.length - 1)];
    if (site) return { line: site.line, column: site.column };
  }
  return {};
}

function keyOnLine(text: string, line: number): string | undefined {
  const site = scanKeySites(text).find((s) => s.line === line);
  return site?.path.join(".");
}

const KEY_PART = /^\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')\s*/;

/** Reads a dotted key at the start of `source`; returns its parts and the rest. */
function readDottedKey(source: string): { parts: string[]; rest: string } | undefined {
  const parts: string[] = [];
  let rest = source;
  for (;;) {
    const match = KEY_PART.exec(rest);
    if (!match) return undefined;
    parts.push(match[1] ?? match[2] ?? match[3] ?? "");
    rest = rest.slice(match[0].length);
    if (!rest.startsWith(".")) return { parts, rest };
    rest = rest.slice(1);
  }
}

/**
 * Lists every key and table header with its line: a small line scanner that follows
 * table headers and skips the insides of multi-line strings and arrays.
 */
function scanKeySites(text: string): KeySite[] {
  const sites: KeySite[] = [];
  const lines = text.split(/\r?\n/);
  let table: string[] = [];
  let openString: string | undefined;
  let depth = 0;
  lines.forEach((lineText, index) => {
    const line = index + 1;
    if (openString) {
      if (lineText.includes(openString)) openString = undefined;
      return;
    }
    if (depth > 0) {
      depth = Math.max(0, depth + bracketBalance(lineText));
      return;
    }
    const column = lineText.length - lineText.trimStart().length + 1;
    const trimmed = lineText.trim();
    const header = /^\[\[?(.*?)\]\]?\s*(#.*)?$/.exec(trimmed);
    if (header) {
      const key = readDottedKey(header[1] ?? "");
      if (key) {
        table = key.parts;
        sites.push({ path: table, line, column });
      }
      return;
    }
    const key = readDottedKey(lineText);
    if (!key?.rest.startsWith("=")) return;
    sites.push({ path: [...table, ...key.parts], line, column });
    const value = key.rest.slice(1);
    const triple = /("""|''')/.exec(value);
    if (triple?.[1] && value.split(triple[1]).length === 2) openString = triple[1];
    else depth = Math.max(0, bracketBalance(value));
  });
  return sites;
}

/** `[`/`{` minus `]`/`}` outside strings and comments. */
function bracketBalance(source: string): number {
  let balance = 0;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quote) {
      if (ch === "\\" && quote === '"') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "#") break;
    else if (ch === "[" || ch === "{") balance++;
    else if (ch === "]" || ch === "}") balance--;
  }
  return balance;
}
