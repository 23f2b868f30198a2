import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type ConfigProblem, formatConfigProblem } from "../../core/config/config.js";
import type { Lang } from "../../core/errors/localized-text.js";
import { isLoreError } from "../../core/errors/lore-error.js";
import {
  findSection,
  HOT_FILE,
  ROUTING_SECTION_ID,
  splitHotSections,
} from "../../core/roots/hot-sections.js";
import { sameRootId } from "../../core/roots/knowledge-roots.js";
import type { LoreSettings } from "../../main/load-config.js";
import { loadForgeAuth } from "../../main/load-forge.js";
import { loadRegistry } from "../../services/roots/knowledge-files.js";
import { rootsStatus } from "../../services/roots/roots-status.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore doctor [--json]";

/**
 * Every code a `lore doctor` finding carries (the README's "Report codes" table lists each):
 * the configuration's, the knowledge roots' (seed 003) and the forge's.
 */
export const DOCTOR_CODES = [
  "config_invalid",
  "project_config_untrusted",
  "trust_file_ignored",
  "root_missing",
  "knowledge_missing",
  "registry_line_malformed",
  "registry_unknown_root",
  "hot_file_missing",
  "routing_section_missing",
  "forge_root_missing",
  "forge_token_missing",
  "license_invalid",
  "license_expired",
] as const;

/** One finding of `lore doctor`. */
export interface DoctorFinding {
  /** `error` (Lore cannot work as configured) or `warning` (a part is missing). */
  level: "error" | "warning";
  /** A stable code, one of {@link DOCTOR_CODES}. */
  code: (typeof DOCTOR_CODES)[number];
  message: string;
}

const t = (lang: Lang, en: string, ru: string) => (lang === "ru" ? ru : en);

/**
 * `lore doctor`: checks the configuration and the knowledge roots (seed 003): configuration
 * problems with line and key, root folders that are missing (each reported; the others go
 * on), roots without `knowledge/`, malformed registry lines, registry lines naming roots
 * that are not configured, and a missing hot file or routing section when read-only roots
 * are configured.
 */
export const doctorCommand: Command = {
  name: "doctor",
  summary: "check the configuration and the knowledge roots",
  help: [
    `Usage: ${USAGE}`,
    "",
    "Reads the configuration (your file: --config, LORE_CONFIG or $XDG_CONFIG_HOME/lore/",
    "lore.toml; then ./lore.toml of the project over it), shows which file each key came",
    "from (and the project keys ignored because the folder is not trusted: lore trust),",
    "and reports every problem: configuration errors with line and key, missing",
    "root folders, roots without knowledge/, malformed registry lines, registry lines that",
    "name a root not configured, a missing agent-notes.md or knowledge-roots-routing-v1",
    "section when read-only roots are configured, a [server] license that lore serve would",
    "refuse (license_invalid) or that has expired (license_expired).",
    "",
    "Options:",
    "  --json   print {config, files, keys, findings}",
    "",
    "Exit codes: 0 nothing wrong (warnings allowed), 2 an error was found.",
  ].join("\n"),
  options: { json: { type: "boolean" } },
  async run(ctx, args) {
    atMostPositionals(args, 0, USAGE);
    const findings: DoctorFinding[] = [];
    let configPath: string | null = null;
    let sources: ConfigSources = { files: [], keys: [] };
    try {
      const settings = ctx.settings();
      configPath = settings.configPath;
      sources = configSources(settings);
      for (const notice of settings.notices ?? []) {
        findings.push({ level: "warning", code: notice.code, message: notice.text[ctx.lang] });
      }
      findings.push(...(await rootFindings(settings.roots ?? [], ctx.lang)));
      findings.push(...forgeFindings(settings, ctx.lang));
      findings.push(...(await licenceFindings(settings, ctx.lang)));
    } catch (error) {
      if (!isLoreError(error) || error.code !== "config_invalid") throw error;
      const file = String(error.data.file ?? "lore.toml");
      configPath = file;
      const problems = (error.data.problems ?? []) as ConfigProblem[];
      for (const problem of problems) {
        findings.push({
          level: "error",
          code: "config_invalid",
          message: formatConfigProblem(problem, ctx.lang, file),
        });
      }
      // A file that cannot be read, or roots that clash across files: no line to point at.
      if (problems.length === 0) {
        findings.push({ level: "error", code: "config_invalid", message: error.text[ctx.lang] });
      }
    }
    if (flag(args, "json")) printJson(ctx.out, { config: configPath, ...sources, findings });
    else {
      ctx.out(`config: ${configPath ?? t(ctx.lang, "(none found)", "(не найдена)")}`);
      for (const f of sources.files) ctx.out(`file: ${f.file} (${fileLabel(f, ctx.lang)})`);
      for (const k of sources.keys) {
        const from = k.ignored
          ? t(ctx.lang, `ignored, from ${k.from}`, `пропущен, из ${k.from}`)
          : k.from === "default"
            ? t(ctx.lang, "from default", "по умолчанию")
            : t(ctx.lang, `from ${k.from}`, `из ${k.from}`);
        ctx.out(`key: ${k.key} = ${JSON.stringify(k.value)} (${from})`);
      }
      for (const f of findings) ctx.out(`${f.level}: ${f.message} [${f.code}]`);
      if (findings.length === 0) ctx.out(t(ctx.lang, "no problem found", "проблем не найдено"));
    }
    return findings.some((f) => f.level === "error") ? EXIT_CODES.invalid_input : EXIT_CODES.ok;
  },
};

/** The files read and, per key, where its value came from (`lore doctor`). */
interface ConfigSources {
  files: { kind: string; file: string; trusted: boolean }[];
  /** `from`: a file path, `env LORE_DB` or `default`; `ignored`: a key of an untrusted project file. */
  keys: { key: string; value: unknown; from: string; ignored?: true }[];
}

function configSources(settings: LoreSettings): ConfigSources {
  const keys: ConfigSources["keys"] = (settings.origins ?? []).map((o) => ({
    key: o.key,
    value: o.value,
    from: o.file,
  }));
  // The keys that say where data goes and what is opened, shown even when no file sets them.
  const defaults: [string, unknown][] = [
    ["index.database", settings.database],
    ["server.host", settings.server.host],
    ["server.port", settings.server.port],
    ["projects.cache", settings.cacheFile],
  ];
  for (const [key, value] of defaults) {
    if (value !== undefined && !keys.some((k) => k.key === key)) {
      keys.push({ key, value, from: "default" });
    }
  }
  for (const i of settings.ignored ?? []) {
    keys.push({ key: i.key, value: i.value, from: i.file, ignored: true });
  }
  return { files: settings.configFiles ?? [], keys };
}

function fileLabel(file: ConfigSources["files"][number], lang: Lang): string {
  if (file.kind !== "project") {
    return file.kind === "flag"
      ? "--config"
      : file.kind === "env"
        ? "LORE_CONFIG"
        : t(lang, "user", "пользователя");
  }
  return file.trusted
    ? t(lang, "project, trusted", "проекта, доверенная папка")
    : t(
        lang,
        "project, not trusted: lang, index.repos and mcp.tool_names only",
        "проекта, папка не доверена: только lang, index.repos и mcp.tool_names",
      );
}

/**
 * What makes the configured forge unusable, found without a network call: a local forge's
 * root that is missing or not a folder (`forge_root_missing`), a Gitea forge without its
 * token in auth.toml (`forge_token_missing`).
 */
function forgeFindings(settings: LoreSettings, lang: Lang): DoctorFinding[] {
  const forge = settings.forge;
  if (forge === undefined) return [];
  const { config } = forge;
  const kind = config.kind ?? (config.root !== undefined ? "local" : "gitea");
  if (kind === "local" && config.root !== undefined) {
    const home = process.env.HOME || homedir();
    const root = resolve(
      forge.base,
      config.root.startsWith("~/") ? join(home, config.root.slice(2)) : config.root,
    );
    if (isFolder(root)) return [];
    return [
      {
        level: "error",
        code: "forge_root_missing",
        message: t(
          lang,
          `the [forge] root ${root} is not a folder; create it, or fix root in lore.toml`,
          `корень [forge] ${root} — не папка; создайте её или исправьте root в lore.toml`,
        ),
      },
    ];
  }
  if (kind === "gitea" && config.url !== undefined) {
    let auth: ReturnType<typeof loadForgeAuth> = null;
    try {
      auth = loadForgeAuth({ env: process.env, path: forge.authPath });
    } catch (error) {
      if (!isLoreError(error)) throw error;
    }
    if (auth !== null) return [];
    return [
      {
        level: "error",
        code: "forge_token_missing",
        message: t(
          lang,
          `the Gitea token is missing or not usable: write [gitea] token = "…" to ${forge.authPath} (chmod 600)`,
          `токена Gitea нет или он не годится: запишите [gitea] token = "…" в ${forge.authPath} (chmod 600)`,
        ),
      },
    ];
  }
  return [];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

async function rootFindings(
  roots: Parameters<typeof rootsStatus>[0],
  lang: Lang,
): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const status = await rootsStatus(roots, lang);
  for (const root of status.roots) {
    if (!root.exists) {
      findings.push({
        level: "error",
        code: "root_missing",
        message: t(
          lang,
          `root ${root.id} (${root.kind}): folder ${root.path} does not exist`,
          `корень ${root.id} (${root.kind}): папки ${root.path} нет`,
        ),
      });
    } else if (!root.has_knowledge) {
      findings.push({
        level: "warning",
        code: "knowledge_missing",
        message: t(
          lang,
          `root ${root.id}: ${root.path} has no knowledge/ folder`,
          `корень ${root.id}: в ${root.path} нет папки knowledge/`,
        ),
      });
    }
  }
  const primary = roots.find((r) => r.kind === "primary");
  if (primary === undefined) return findings;
  const registry = await loadRegistry(primary);
  for (const d of registry?.diagnostics ?? []) {
    findings.push({
      level: "warning",
      code: d.code,
      message: `${d.path}:${d.line}: ${d.message[lang]}`,
    });
  }
  for (const entry of registry?.entries ?? []) {
    if (!roots.some((r) => sameRootId(r.id, entry.root))) {
      findings.push({
        level: "warning",
        code: "registry_unknown_root",
        message: t(
          lang,
          `registry line ${entry.line}: root “${entry.root}” is not configured`,
          `строка реестра ${entry.line}: корень «${entry.root}» не настроен`,
        ),
      });
    }
  }
  if (status.read_only_routing_enabled) {
    const hot = await readFile(join(primary.path, HOT_FILE), "utf8").catch(() => null);
    if (hot === null) {
      findings.push({
        level: "warning",
        code: "hot_file_missing",
        message: t(
          lang,
          `${HOT_FILE} is missing at the primary root`,
          `в основном корне нет ${HOT_FILE}`,
        ),
      });
    } else if (findSection(splitHotSections(hot), ROUTING_SECTION_ID) === undefined) {
      findings.push({
        level: "warning",
        code: "routing_section_missing",
        message: t(
          lang,
          `${HOT_FILE} has no ${ROUTING_SECTION_ID} section`,
          `в ${HOT_FILE} нет секции ${ROUTING_SECTION_ID}`,
        ),
      });
    }
  }
  return findings;
}

/**
 * The licence of `[server] license` (seed 004 editions), checked as `lore serve` checks it at
 * start: `license_invalid` (error: the server would not start), `license_expired` (warning:
 * it would run Community). Nothing when no licence is set.
 */
async function licenceFindings(settings: LoreSettings, lang: Lang): Promise<DoctorFinding[]> {
  const path = settings.server.license;
  if (path === undefined) return [];
  const { loadLicence, licenceWarning } = await import("../../main/load-licence.js");
  try {
    const state = await loadLicence(path, process.env);
    const warning = licenceWarning(state, path, lang);
    if (warning === undefined) return [];
    return [{ level: "warning", code: "license_expired", message: warning.replace(/^lore: /, "") }];
  } catch (error) {
    if (!isLoreError(error) || error.code !== "license_invalid") throw error;
    return [{ level: "error", code: "license_invalid", message: error.text[lang] }];
  }
}
