import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../src/core/diagnostic.js";
import { ERROR_CODES } from "../src/core/lore-error.js";

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "README.md"),
  "utf8",
);

describe("README", () => {
  it("has a Quick start of exactly two commands", () => {
    const section = README.split("## Quick start")[1]?.split("\n## ")[0] ?? "";
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
    expect(block.trim().split("\n")).toEqual(["npm ci && npm run demo", "npm test"]);
  });

  it("lists every diagnostic code with its severity", () => {
    for (const [code, severity] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(README).toMatch(new RegExp(`\\| \`${code}\` +\\| ${severity} +\\|`));
    }
  });

  it("lists every error code", () => {
    for (const code of Object.keys(ERROR_CODES)) {
      expect(README).toMatch(new RegExp(`\\| \`${code}\` +\\|`));
    }
  });
});
