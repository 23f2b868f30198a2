import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type ConfigProblem, formatConfigProblem } from "../../core/config.js";
import {
  findSection,
  HOT_FILE,
  ROUTING_SECTION_ID,
  splitHotSections,
} from "../../core/hot-sections.js";
import { sameRootId } from "../../core/knowledge-roots.js";
import type { Lang } from "../../core/localized-text.js";
import { isLoreError } from "../../core/lore-error.js";
import type { LoreSettings } from "../../main/load-config.js";
import { loadRegistry } from "../../services/knowledge-files.js";
import { rootsStatus } from "../../services/roots-status.js";
import { atMostPositionals, flag, printJson } from "../args.js";
import type { Command } from "../command.js";
import { EXIT_CODES } from "../exit-codes.js";

const USAGE = "lore doctor [--json]";

/** One finding of `lore doctor`. */
export interface DoctorFinding {
  /** `error` (Lore cannot work as configured) or `warning` (a part is missing). */
  level: "error" | "warning";
  /** A stable code: `config_invalid`, `root_missing`, `knowledge_missing`, `registry_line_malformed`, `registry_unknown_root`, `hot_file_missing`, `routing_section_missing`. */
  code: string;
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
    "section when read-only roots are configured.",
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
