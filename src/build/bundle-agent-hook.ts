/**
 * The build step after `tsc` (`npm run build`, and the tests' global setup): bundles the
 * agent hook's module graph (`dist/hooks/agent/agent-hook.js`, section "Deterministic
 * surfacing through agent hooks") into `dist/hooks/agent/bundle/`, which
 * `dist/cli/main.js hook <client>` loads.
 *
 * Why: the hook runs before every prompt and tool call of an agent, so its process start is
 * on the agent's path. Node 20 has no compile cache, and loading ~60 small ES modules one
 * by one cost ~55 ms of CPU (resolution, reading, linking each); the same code as a few
 * chunks loads in ~25 ms (measured on the 100k bench index, `npm run bench:hook`).
 * Packages stay outside (`better-sqlite3` is native; the stemmer and stop-word files are
 * required lazily by `core/text/`), and the dynamic imports stay chunks of their own, so the
 * configuration reader (zod, smol-toml) still loads only when a lore.toml exists.
 *
 * Usage: `node dist/build/bundle-agent-hook.js` (from the package root or anywhere).
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/** The bundle's folder, relative to `dist/`. */
export const AGENT_HOOK_BUNDLE_DIR = "hooks/agent/bundle";

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(dist, AGENT_HOOK_BUNDLE_DIR);
rmSync(out, { recursive: true, force: true });
await build({
  input: join(dist, "hooks", "agent", "agent-hook.js"),
  platform: "node",
  // Every package and builtin stays a runtime import: only Lore's own modules are bundled.
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(id),
  logLevel: "warn",
  output: { dir: out, format: "esm", entryFileNames: "agent-hook.js" },
});
