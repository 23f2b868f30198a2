import { defineConfig } from "vitest/config";

/**
 * The load suite: tests that drive hundreds of connections for a minute (three servers
 * behind nginx). They run after the main suite, alone, so that their load neither slows
 * the other tests' servers nor is slowed by them.
 */
export default defineConfig({
  test: {
    include: ["test/load/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["test/global-setup.ts"],
    // After the run, each suite skipped on purpose with its reason (its name).
    reporters: ["default", "./test/helpers/skip-reasons-reporter.ts"],
  },
});
