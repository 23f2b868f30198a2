import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/corpus/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
