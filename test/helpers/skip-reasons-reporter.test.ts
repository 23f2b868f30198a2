/**
 * The skip-reasons reporter on a real vitest run of a small fixture: each suite skipped on
 * purpose is named once (the outermost of a skipped tree), a test skipped with a note is
 * named with it, and a run filtered by `-t` names nothing.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SKIPPED_HEADING } from "./skip-reasons-reporter.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
let dir: string;

beforeAll(() => {
  // Inside the checkout, so the fixture resolves `vitest` from its node_modules.
  dir = mkdtempSync(join(HERE, ".skip-reporter-"));
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `export default { test: { include: ["*.check.ts"], reporters: ["default", ${JSON.stringify(join(HERE, "skip-reasons-reporter.ts"))}] } };\n`,
  );
  writeFileSync(
    join(dir, "fixture.check.ts"),
    [
      'import { describe, expect, it } from "vitest";',
      'describe.skip("Widget tests skipped: set WIDGET_URL", () => {',
      '  describe("inner", () => { it("a", () => {}); });',
      "});",
      'describe("runs", () => {',
      '  it("passes", () => { expect(1).toBe(1); });',
      '  it("needs the corpus", (ctx) => { ctx.skip("the corpus is absent"); });',
      "});",
      "",
    ].join("\n"),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vitest = (extra: string[]) =>
  spawnSync(
    process.execPath,
    [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--root", dir, ...extra],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "1" } },
  );

describe("skip-reasons reporter", () => {
  it("names each suite skipped on purpose and each test skipped with a note, after the run", () => {
    const run = vitest([]);
    expect(run.status, run.stderr).toBe(0);
    const listed = run.stdout.slice(run.stdout.indexOf(SKIPPED_HEADING)).trimEnd().split("\n");
    expect(listed).toEqual([
      SKIPPED_HEADING,
      "  ↓ fixture.check.ts: Widget tests skipped: set WIDGET_URL",
      "  ↓ fixture.check.ts: needs the corpus: the corpus is absent",
    ]);
  });

  it("prints nothing in a run filtered by name", () => {
    const run = vitest(["-t", "passes"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain(SKIPPED_HEADING);
  });
});
