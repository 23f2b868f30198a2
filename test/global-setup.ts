import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * vitest globalSetup: builds `dist/` once (`tsc -p tsconfig.build.json`) so end-to-end tests
 * can spawn `node dist/cli/main.js` — the same bin users run. Type errors are printed but do
 * not stop the run when the build still emitted the CLI (`npm run typecheck` is the gate for
 * types); a missing CLI fails the run.
 */
export default function setup(): void {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    process.stderr.write(
      `global-setup: tsc -p tsconfig.build.json reported:\n${result.stdout}${result.stderr}\n`,
    );
  }
  if (!existsSync(join(ROOT, "dist", "cli", "main.js"))) {
    throw new Error("global-setup: the build did not produce dist/cli/main.js");
  }
  // The hooks' bundles (as `npm run build` makes them), so that `lore hook <client>` and
  // `lore hook pre-receive|post-receive` run this build's code, never an older bundle's.
  for (const script of ["bundle-agent-hook.js", "bundle-push-hook.js"]) {
    const bundle = spawnSync(process.execPath, [join(ROOT, "dist", "build", script)], {
      cwd: ROOT,
      encoding: "utf8",
    });
    if (bundle.status !== 0) {
      throw new Error(`global-setup: ${script} failed:\n${bundle.stdout}${bundle.stderr}`);
    }
  }
  // The bundle of `lore recall` and `lore mcp` (src/build/bundle-cli.ts), for the same reason.
  const cli = spawnSync(process.execPath, [join(ROOT, "dist", "build", "bundle-cli.js")], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (cli.status !== 0) {
    throw new Error(`global-setup: bundling the CLI failed:\n${cli.stdout}${cli.stderr}`);
  }
}
