/**
 * `npm run demo` (the built `dist/demo/run-demo.js`) end to end in a sandbox: it answers
 * every step and ends on what `lore mcp` wrote to stderr — `(nothing)` when it wrote
 * nothing, never an empty heading.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isolatedEnv } from "../e2e/run-lore.js";

const DEMO = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "dist",
  "demo",
  "run-demo.js",
);
const sandbox = isolatedEnv();
afterAll(() => sandbox.cleanup());

describe("npm run demo", () => {
  it("runs to its end; the stderr heading of lore mcp is never left empty", () => {
    const run = spawnSync(process.execPath, [DEMO], { env: sandbox.env, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const tail = run.stdout.slice(
      run.stdout.indexOf("━━ lore mcp's stderr (stdout carried only the protocol)"),
    );
    const lines = tail.trimEnd().split("\n");
    expect(lines[0]).toBe("━━ lore mcp's stderr (stdout carried only the protocol)");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.startsWith("  ") && line.trim() !== "")).toBe(true);
    expect(run.stdout).toContain("knowledge_check — a draft with a typo");
  });
});
