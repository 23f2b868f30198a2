/**
 * A build step after `tsc` (`npm run build`, and the tests' global setup): bundles the git
 * push hooks' module graph (`dist/hooks/push/push-hook.js`, seed 004 "Разбор при
 * отправке") into `dist/hooks/push/bundle/`, which `dist/cli/main.js hook
 * pre-receive|post-receive` loads.
 *
 * Why: git starts one `node` process per push and hook, so the hook's start-up is on
 * every push's path. Loaded module by module, its graph (the index, the parser, the push
 * services, ~100 small ES modules) costs its resolution, reading and linking one file at a
 * time; as a few chunks it loads in a fraction of that (about 40 ms of CPU less per
 * hook on the 2-core build machine; the push bench, `npm run build && node
 * dist/bench/server/push-bench.js`, figures in the README). As for the agent hook's bundle
 * (`bundle-agent-hook.ts`), packages stay outside (`better-sqlite3` is native, the stemmer
 * loads as it did) and the dynamic imports stay chunks of their own: the configuration
 * reader, the server store, the secret scanner are loaded only when used. The one exception
 * is the secret scanner's own packages ({@link BUNDLED_PACKAGES}: secretlint's core, its
 * recommended preset and their small ES-module dependencies), bundled into the scanner's
 * chunks: `pre-receive` loads them on every push that changes a knowledge file, and as ~20
 * files resolved one by one they cost ~55 ms of CPU against ~30 ms as two chunks.
 *
 * Usage: `node dist/build/bundle-push-hook.js` (from the package root or anywhere).
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/** The bundle's folder, relative to `dist/`. */
export const PUSH_HOOK_BUNDLE_DIR = "hooks/push/bundle";

/**
 * Packages bundled rather than imported at run time (see the module header): secretlint's
 * ES modules and the small ones they import. `debug` stays outside (CommonJS, reads its
 * environment as it loads).
 */
export const BUNDLED_PACKAGES = /^(?:@secretlint\/[^/]+|structured-source|boundary)(?:\/|$)/;

/**
 * Whether the bundler leaves an import to Node at run time: any package or builtin but
 * {@link BUNDLED_PACKAGES}; Lore's own modules (relative or absolute paths) are bundled.
 *
 * @param id - the import specifier as written.
 */
export function isExternal(id: string): boolean {
  if (id.startsWith(".") || id.startsWith("/") || /^[A-Za-z]:[\\/]/.test(id)) return false;
  return !BUNDLED_PACKAGES.test(id);
}

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(dist, PUSH_HOOK_BUNDLE_DIR);
rmSync(out, { recursive: true, force: true });
await build({
  input: join(dist, "hooks", "push", "push-hook.js"),
  platform: "node",
  // Packages and builtins stay runtime imports, but the secret scanner's (see above).
  external: isExternal,
  logLevel: "warn",
  output: { dir: out, format: "esm", entryFileNames: "push-hook.js" },
});
