import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // test/load/ runs on its own after the rest (vitest.load.config.ts).
    exclude: ["test/corpus/**", "test/load/**", "node_modules/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
    // After the run, each suite skipped on purpose with its reason (its name).
    reporters: ["default", "./test/helpers/skip-reasons-reporter.ts"],
  },
});
