/**
 * Layered configuration: the user's own file and a project's `lore.toml`, merged key by key
 * (project over user), where a project file may set only project-scoped keys unless the
 * user trusted its folder (`lore trust`, as direnv and mise do). The forge a token is sent
 * to, the server's address and every data path thus come from the user's own file, the
 * environment or flags — never from a repository someone else wrote. Pure.
 */

import type { LocalizedText } from "../errors/localized-text.js";
import type { KnowledgeConfig } from "../roots/knowledge-roots.js";
import type { ConfigFile } from "./config.js";

/** Where a layer's file came from: `--config`, `LORE_CONFIG`, the XDG folder, or `./lore.toml`. */
export type ConfigSourceKind = "flag" | "env" | "user" | "project";

/** One configuration file taking part in the settings. */
export interface ConfigLayer {
  kind: ConfigSourceKind;
  /** The file's absolute path. */
  file: string;
  /**
   * The file's values, paths already absolute (resolved against the file's folder, `~`
   * expanded) so that layers can be merged.
   */
  value: ConfigFile;
  /**
   * Whether every key of the file counts: always for the user's own files (`flag`, `env`,
   * `user`); for a `project` file, only when the user trusted its folder.
   */
  trusted: boolean;
  /** For a `project` layer: its folder (the real path), to keep `index.repos` inside it. */
  folder?: string;
}

/** Which layer set a key (see {@link mergeConfigLayers}). */
export interface KeyOrigin {
  /** Dotted key as people write it: `forge.url`, `knowledge.read_only.group`. */
  key: string;
  kind: ConfigSourceKind;
  file: string;
  /** The value applied (paths absolute). */
  value: unknown;
}

/** A key of an untrusted project file that was not applied. */
export interface IgnoredKey {
  key: string;
  /** The value the file sets (paths absolute), shown by `lore doctor`; never applied. */
  value: unknown;
  file: string;
  /** `untrusted`: the key is not project-scoped and the folder is not trusted; `outside_project`: `index.repos` leads out of the project's folder. */
  reason: "untrusted" | "outside_project";
}

/** What {@link mergeConfigLayers} gives. */
export interface MergedConfig {
  /** The merged values (paths absolute). */
  value: ConfigFile;
  /** Per set key, the layer it came from, in key order. */
  origins: KeyOrigin[];
  /** Keys of untrusted project files that were not applied, in file order. */
  ignored: IgnoredKey[];
}

/**
 * Keys a project's `lore.toml` may set without being trusted: they change what Lore shows,
 * never where a token goes, what address is opened or which data files are read or written.
 * `index.repos` counts only while every path stays inside the project's folder;
 * `mcp.tool_names` (how the tools are named) only changes what an agent sees.
 */
export const PROJECT_SCOPED_KEYS: readonly string[] = ["lang", "index.repos", "mcp.tool_names"];

type Leaf = { key: string; value: unknown };

/**
 * Splits a config value into its leaves, in file order: one per top-level scalar, one per
 * key of a table (`forge.url`, `index.repos` whole), one per named root
 * (`knowledge.roots.<id>`) and per read-only root (`knowledge.read_only.<id>`, ids compared
 * without case), so that a later layer overrides key by key. Tables this module does not
 * name are split the same way, so a key added to `core/config/config.ts` is layered too (and,
 * not being project-scoped, needs a trusted folder in a project file).
 */
export function configLeaves(value: ConfigFile): Leaf[] {
  const leaves: Leaf[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (name === "knowledge") {
      const knowledge = item as KnowledgeConfig;
      if (knowledge.primary !== undefined) {
        leaves.push({ key: "knowledge.primary", value: knowledge.primary });
      }
      for (const [id, path] of Object.entries(knowledge.roots ?? {})) {
        leaves.push({ key: `knowledge.roots.${id}`, value: path });
      }
      for (const root of knowledge.read_only ?? []) {
        leaves.push({ key: `knowledge.read_only.${root.id}`, value: root });
      }
    } else if (item !== null && typeof item === "object" && !Array.isArray(item)) {
      for (const [key, leaf] of Object.entries(item as Record<string, unknown>)) {
        if (leaf !== undefined) leaves.push({ key: `${name}.${key}`, value: leaf });
      }
    } else leaves.push({ key: name, value: item });
  }
  return leaves;
}

/** Leaves keyed so that `knowledge.read_only.Group` and `…group` are one key. */
function leafId(key: string): string {
  return key.startsWith("knowledge.read_only.") || key.startsWith("knowledge.roots.")
    ? key.toLowerCase()
    : key;
}

/**
 * Merges the layers, later over earlier, key by key (see {@link configLeaves}). A leaf of
 * an untrusted project layer is applied only when its key is in {@link PROJECT_SCOPED_KEYS}
 * (and, for `index.repos`, every path is inside the project's folder); the others are
 * listed in `ignored`.
 *
 * @param layers - user files first, then the project file.
 * @returns the merged value, where each key came from, and what was ignored.
 */
export function mergeConfigLayers(layers: readonly ConfigLayer[]): MergedConfig {
  const chosen = new Map<string, { leaf: Leaf; layer: ConfigLayer }>();
  const ignored: IgnoredKey[] = [];
  for (const layer of layers) {
    for (const leaf of configLeaves(layer.value)) {
      const refusal = layer.trusted ? undefined : untrustedRefusal(leaf, layer);
      if (refusal !== undefined) {
        ignored.push({ key: leaf.key, value: leaf.value, file: layer.file, reason: refusal });
        continue;
      }
      const id = leafId(leaf.key);
      chosen.delete(id);
      chosen.set(id, { leaf, layer });
    }
  }
  const value: ConfigFile = {};
  const origins: KeyOrigin[] = [];
  for (const { leaf, layer } of chosen.values()) {
    setLeaf(value, leaf);
    origins.push({ key: leaf.key, kind: layer.kind, file: layer.file, value: leaf.value });
  }
  origins.sort((a, b) => a.key.localeCompare(b.key));
  return { value, origins, ignored };
}

function untrustedRefusal(leaf: Leaf, layer: ConfigLayer): IgnoredKey["reason"] | undefined {
  if (!PROJECT_SCOPED_KEYS.includes(leaf.key)) return "untrusted";
  if (leaf.key === "index.repos") {
    const folder = layer.folder;
    const paths = leaf.value as string[];
    if (folder === undefined || !paths.every((path) => isInsideFolder(folder, path))) {
      return "outside_project";
    }
  }
  return undefined;
}

/** Lexical: `path` (absolute, normalised) is `folder` or under it. */
function isInsideFolder(folder: string, path: string): boolean {
  const base = folder.replace(/[\\/]+$/, "");
  return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}\\`);
}

function setLeaf(value: ConfigFile, leaf: Leaf): void {
  const [table, name] = splitKey(leaf.key);
  if (table === "") {
    (value as Record<string, unknown>)[name] = leaf.value;
    return;
  }
  if (table === "knowledge") {
    const knowledge: KnowledgeConfig = value.knowledge ?? {};
    value.knowledge = knowledge;
    if (name === "primary") knowledge.primary = leaf.value as string;
    else if (name.startsWith("roots.")) {
      knowledge.roots = { ...knowledge.roots, [name.slice("roots.".length)]: leaf.value as string };
    } else {
      knowledge.read_only = [
        ...(knowledge.read_only ?? []),
        leaf.value as { id: string; path: string },
      ];
    }
    return;
  }
  const record = value as Record<string, Record<string, unknown> | undefined>;
  const sub = record[table] ?? {};
  sub[name] = leaf.value;
  record[table] = sub;
}

/** `forge.url` → `["forge", "url"]`; `knowledge.roots.x` → `["knowledge", "roots.x"]`; `lang` → `["", "lang"]`. */
function splitKey(key: string): [string, string] {
  const dot = key.indexOf(".");
  return dot < 0 ? ["", key] : [key.slice(0, dot), key.slice(dot + 1)];
}

/** Something the user should be told about the configuration: a stable code and the text. */
export interface SettingsNotice {
  /** `project_config_untrusted` or `trust_file_ignored`. */
  code: "project_config_untrusted" | "trust_file_ignored";
  text: LocalizedText;
}

/**
 * The notice for keys of untrusted project files that were not applied: one per file,
 * naming the keys and what to run.
 *
 * @param ignored - from {@link mergeConfigLayers}; not empty.
 */
export function ignoredKeysNotice(ignored: readonly IgnoredKey[]): SettingsNotice {
  const byFile = new Map<string, IgnoredKey[]>();
  for (const key of ignored) byFile.set(key.file, [...(byFile.get(key.file) ?? []), key]);
  const en: string[] = [];
  const ru: string[] = [];
  for (const [file, keys] of byFile) {
    const folder = file.replace(/[\\/][^\\/]*$/, "");
    const untrusted = keys.filter((k) => k.reason === "untrusted").map((k) => k.key);
    const outside = keys.filter((k) => k.reason === "outside_project").map((k) => k.key);
    if (untrusted.length > 0) {
      const one = untrusted.length === 1;
      en.push(
        `${file} sets ${untrusted.join(", ")}, which a project file may set only in a trusted folder; ignored (to use ${one ? "it" : "them"}: lore trust ${folder})`,
      );
      ru.push(
        `${file} задаёт ${untrusted.join(", ")} — файл проекта может задавать ${one ? "этот ключ" : "эти ключи"} только в доверенной папке; ${one ? "пропущен" : "пропущены"} (чтобы применить: lore trust ${folder})`,
      );
    }
    if (outside.length > 0) {
      const one = outside.length === 1;
      en.push(
        `${file}: ${outside.join(", ")} ${one ? "leads" : "lead"} outside the project folder; ignored (to use ${one ? "it" : "them"}: lore trust ${folder})`,
      );
      ru.push(
        `${file}: ${outside.join(", ")} ${one ? "ведёт" : "ведут"} за пределы папки проекта; ${one ? "пропущен" : "пропущены"} (чтобы применить: lore trust ${folder})`,
      );
    }
  }
  return { code: "project_config_untrusted", text: { en: en.join("; "), ru: ru.join("; ") } };
}

/**
 * The notice for a trust file that is not honoured (then no folder is trusted).
 *
 * @param problem - why: `unreadable` or `insecure`, and the file.
 */
export function trustFileNotice(problem: {
  reason: "unreadable" | "insecure";
  detail: string;
}): SettingsNotice {
  const text: LocalizedText =
    problem.reason === "insecure"
      ? {
          en: `the trust file ${problem.detail} can be written by group or others, so no folder is trusted; run: chmod 600 on it`,
          ru: `файл доверия ${problem.detail} доступен на запись группе или всем, поэтому ни одна папка не считается доверенной; выполните chmod 600`,
        }
      : {
          en: `the trust file ${problem.detail} cannot be read, so no folder is trusted; fix or delete it`,
          ru: `файл доверия ${problem.detail} не читается, поэтому ни одна папка не считается доверенной; исправьте или удалите его`,
        };
  return { code: "trust_file_ignored", text };
}
