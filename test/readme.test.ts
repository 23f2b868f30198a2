import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_CODES } from "../src/core/diagnostic.js";
import { ERROR_CODES } from "../src/core/lore-error.js";
import { parseEntry } from "../src/core/parse-entry.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The text of every fenced code block of the README, fences left out. */
function fencedBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? "");
}

/** The tools as the MCP server lists them, from the snapshots in src/mcp/__toolsnaps__/. */
function toolSnapshots(): { name: string; readOnly: boolean; outputSchema: boolean }[] {
  const dir = join(ROOT, "src", "mcp", "__toolsnaps__");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".snap"))
    .map((f) => {
      const tool = JSON.parse(readFileSync(join(dir, f), "utf8")) as {
        name: string;
        annotations?: { readOnlyHint?: boolean };
        outputSchema?: unknown;
      };
      return {
        name: tool.name,
        readOnly: tool.annotations?.readOnlyHint === true,
        outputSchema: tool.outputSchema !== undefined,
      };
    });
}

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

  it("has entry examples that parse, strictly and leniently, with no error", () => {
    const entries = fencedBlocks(README).filter((block) => block.startsWith("---\nid:"));
    expect(entries.length).toBeGreaterThan(0);
    for (const text of entries) {
      for (const mode of ["strict", "lenient"] as const) {
        const parsed = parseEntry(text, { mode });
        const errors = parsed.diagnostics.filter((d) => d.severity === "error");
        expect({ mode, errors }).toEqual({ mode, errors: [] });
        expect(parsed.value, `${mode} parse of:\n${text}`).toBeDefined();
      }
    }
  });

  it("never runs npx in a form that may download the unrelated npm package lore", () => {
    expect(README).not.toMatch(/\bnpx (?!--no-install )/);
    expect(README).not.toMatch(/"command": "npx", "args": \[(?!"--no-install")/);
  });

  it("lists every MCP tool with its read-only annotation and output schema", () => {
    const tools = toolSnapshots();
    expect(tools).toHaveLength(17);
    const yesNo = (value: boolean) => (value ? "yes" : "no");
    for (const tool of tools) {
      const row = `| \`${tool.name}\` | ${yesNo(tool.readOnly)} | ${yesNo(tool.outputSchema)} |`;
      expect(README).toContain(row);
    }
    expect(README).not.toMatch(/Every tool is annotated `readOnlyHint: true`/);
  });
});
