import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import {
  HOOK_MARK,
  type HookLayout,
  type HookScriptOptions,
  hookFile,
  hookScript,
  LORE_HOOKS,
} from "../../core/push/hook-script.js";

/** Options of {@link installHooks}: what the scripts embed, and whether to replace others' hooks. */
export interface InstallHooksOptions extends HookScriptOptions {
  /** Replace a `pre-receive` / `post-receive` that is not Lore's. Default: false (refused). */
  force?: boolean;
  /** Where the server runs hooks from (see `HookLayout`). Default: `plain` (`hooks/`). */
  layout?: HookLayout;
}

/**
 * Writes Lore's `hooks/pre-receive` and `hooks/post-receive` into a bare repository (seed
 * 004, "Разбор при отправке"; `lore hook install`, `lore repo create`, the re-check at
 * `lore serve` start): mode 0755, see `core/push/hook-script.ts` for the text. A hook that
 * is already exactly right is left alone; one of Lore's that differs (another node, another
 * index) is rewritten, atomically (written beside, then renamed).
 *
 * @param bareDir - the bare repository's folder; the scripts go where `layout` says
 *   (`hooks/pre-receive`, `custom_hooks/pre-receive`, `hooks/pre-receive.d/lore`).
 * @param options - see {@link InstallHooksOptions}.
 * @throws LoreError `path_not_found` when `bareDir` is not a folder; `file_exists` when a
 *   hook that is not Lore's is there and `force` is not set.
 */
export async function installHooks(bareDir: string, options: InstallHooksOptions): Promise<void> {
  const info = await stat(bareDir).catch(() => null);
  if (info === null || !info.isDirectory())
    throw new LoreError("path_not_found", { path: bareDir });
  for (const hook of LORE_HOOKS) {
    const file = join(bareDir, ...hookFile(hook, options.layout).split("/"));
    await mkdir(dirname(file), { recursive: true });
    const text = hookScript(hook, options);
    const old = await readFile(file, "utf8").catch(() => undefined);
    if (old !== undefined && !old.includes(HOOK_MARK) && options.force !== true) {
      throw new LoreError("file_exists", { path: file });
    }
    const mode = old === undefined ? 0 : (await stat(file)).mode & 0o777;
    if (old === text && mode === 0o755) continue;
    const temp = `${file}.lore-${process.pid}.tmp`;
    await writeFile(temp, text, { mode: 0o755 });
    await chmod(temp, 0o755);
    await rename(temp, file);
  }
}
