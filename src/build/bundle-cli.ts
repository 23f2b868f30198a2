/**
 * The build step after `tsc` for the hot commands (`npm run build`, and the tests' global
 * setup): for each of {@link HOT_COMMANDS} bundles the command line's module graph
 * (`dist/cli/run-cli.js`) with only that command's graph inside — the other commands of the
 * table stay imports of the modules tsc wrote — into `dist/bundle/<name>.js` and its chunks
 * `dist/bundle/<name>-*.js`, which `dist/cli/main.js` loads for `lore recall` and `lore mcp`
 * (section "Speed where users feel it": a one-shot recall, and the MCP server's cold start
 * to its first answer).
 *
 * Why: Node 20 has no compile cache, and each ES module is resolved, read, compiled and
 * linked on its own. Unbundled, `lore recall` loads 106 of Lore's modules and `lore mcp`
 * 193 (plus ~200 of packages) before the first answer; bundled, 22 and 42 chunks. A dynamic
 * import stays a chunk of its own, loaded when it runs, so what a command does not run is
 * still not loaded (a single-file bundle would hoist zod and smol-toml to its top).
 * `lore mcp` also carries the MCP SDK and its schema and validation packages inside
 * ({@link MCP_INLINED_PACKAGES}): as packages they were 170 more module files (zod alone
 * 116) plus ajv's CommonJS files, read and compiled one by one before `initialize` could
 * be answered — the bare SDK server pays the same, and was the floor Lore's cold start is
 * measured against (src/bench/mcp-bench.ts).
 *
 * The folder sits at the depth of `dist/cli/` so that the `import.meta.url`-relative paths
 * of the bundled modules still land where they do unbundled (`../../package.json` of
 * `run-cli.ts`, `../cli/main.js` of the hook installer). The index worker is an entry of its
 * own (`dist/bundle/index-worker.js`), because `batch-analysis.ts` starts the worker script
 * that sits beside it. Docstrings are left out (licence comments stay): they were a third
 * of the text.
 *
 * Usage: `node dist/build/bundle-cli.js` (from the package root or anywhere).
 */
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/** The bundle's folder, relative to `dist/`. */
export const CLI_BUNDLE_DIR = "bundle";

/** The commands bundled, each into `dist/bundle/<name>.js`. */
export const HOT_COMMANDS = ["recall", "mcp"] as const;

const dist = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(dist, CLI_BUNDLE_DIR);
const commandList = join(dist, "cli", "command-list.js");

/**
 * Small pure-JS packages that only Lore's own code imports: bundled too, otherwise module
 * files to resolve and read one by one (`uuid` 20 on `lore mcp`'s start, `smol-toml` 9).
 */
const INLINED_PACKAGES = new Set(["uuid", "smol-toml", "js-yaml"]);

/**
 * The MCP server's packages, bundled into `lore mcp` only: the SDK, the zod it validates
 * with (one copy: Lore's tool schemas and the SDK's own must be the same zod), its JSON
 * Schema converter, and ajv (CommonJS) with its helpers. `lore recall` loads none of them.
 */
const MCP_INLINED_PACKAGES = [
  "@modelcontextprotocol/sdk",
  "zod",
  "zod-to-json-schema",
  "ajv",
  "ajv-formats",
  "fast-deep-equal",
  "fast-uri",
  "json-schema-traverse",
];

/** `id` names package `name` itself or a file of it (`zod/v4/core`). */
const isOfPackage = (id: string, name: string) => id === name || id.startsWith(`${name}/`);

/**
 * What stays a runtime import in the bundle of command `hot`: builtins and packages
 * (`better-sqlite3` is native; the stemmer and stop-word files are required lazily by
 * `core/text/`), except {@link INLINED_PACKAGES} and, for `lore mcp`,
 * {@link MCP_INLINED_PACKAGES}.
 */
const externalOf = (hot: string) => (id: string) =>
  !id.startsWith(".") &&
  !id.startsWith("/") &&
  !/^[A-Za-z]:[\\/]/.test(id) &&
  !INLINED_PACKAGES.has(id) &&
  !(hot === "mcp" && MCP_INLINED_PACKAGES.some((name) => isOfPackage(id, name)));

rmSync(out, { recursive: true, force: true });
for (const hot of HOT_COMMANDS) {
  await build({
    input: join(dist, "cli", "run-cli.js"),
    platform: "node",
    external: externalOf(hot),
    logLevel: "warn",
    plugins: [
      {
        // The other commands of the table stay the modules tsc wrote (imported from
        // `dist/cli/commands/` when they run): the bundle holds one command's graph.
        name: "other-commands-stay-modules",
        resolveId(source, importer) {
          if (importer !== commandList || !source.startsWith("./commands/")) return null;
          if (source === `./commands/${hot}.js`) return null;
          return { id: `../cli/${source.slice(2)}`, external: true };
        },
      },
    ],
    // A dynamic import inside the graph stays a chunk of its own (loaded when it runs).
    output: {
      dir: out,
      format: "esm",
      entryFileNames: `${hot}.js`,
      chunkFileNames: `${hot}-[name]-[hash].js`,
      // The docstrings are a third of the text V8 would scan at every start; licences stay.
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  });
}
await build({
  input: join(dist, "services", "indexing", "index-worker.js"),
  platform: "node",
  external: externalOf("index-worker"),
  logLevel: "warn",
  output: { file: join(out, "index-worker.js"), format: "esm", codeSplitting: false },
});
