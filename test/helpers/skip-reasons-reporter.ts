/**
 * A vitest reporter beside the default one (the README's Quick start: "the suites that need
 * more than that skip with a line saying what is missing"): after the run it prints one line
 * per suite skipped on purpose — its name is the reason, e.g. `PostgreSQL tests skipped: set
 * LORE_TEST_PG_URL …` — and per test skipped with a note (`ctx.skip(note)`), so a run
 * without PostgreSQL, Chromium or nginx says what it did not test and why. A run filtered by
 * name (`-t`) prints nothing (every suite left out would show as skipped).
 */
import { relative } from "node:path";
import type { Reporter, TestModule, TestSuite, Vitest } from "vitest/node";

/** The heading of the list of skipped suites. */
export const SKIPPED_HEADING = "Skipped on purpose (name = what is missing):";

/** See the module header. */
export default class SkipReasonsReporter implements Reporter {
  #root = process.cwd();
  #filtered = false;
  #write: (text: string) => void = (text) => process.stdout.write(text);

  /** Notes the root (for relative file names) and whether the run is filtered by name. */
  onInit(vitest: Vitest): void {
    this.#root = vitest.config.root;
    this.#filtered = vitest.config.testNamePattern !== undefined;
    this.#write = (text) => vitest.logger.log(text.replace(/\n$/, ""));
  }

  /** Prints the skipped suites (the outermost of each skipped tree) and noted skipped tests. */
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (this.#filtered) return;
    const lines = new Set<string>();
    for (const module of modules) {
      const file = relative(this.#root, module.moduleId);
      for (const suite of module.children.allSuites()) {
        if (suite.options.mode !== "skip" || skippedParent(suite)) continue;
        lines.add(`  ↓ ${file}: ${suite.name}`);
      }
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === "skipped" && result.note !== undefined && result.note !== "") {
          lines.add(`  ↓ ${file}: ${test.name}: ${result.note}`);
        }
      }
    }
    if (lines.size === 0) return;
    this.#write(`\n${SKIPPED_HEADING}\n${[...lines].join("\n")}\n`);
  }
}

/** Whether a suite sits in a skipped suite (then only the outer one is named). */
function skippedParent(suite: TestSuite): boolean {
  return suite.parent.type === "suite" && suite.parent.options.mode === "skip";
}
