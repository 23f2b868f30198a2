import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DOCTOR_CODES } from "../src/cli/commands/doctor.js";
import { exitCodeFor } from "../src/cli/exit-codes.js";
import { NOTICE_CODES } from "../src/cli/notice-codes.js";
import { DIAGNOSTIC_CODES } from "../src/core/entry/diagnostic.js";
import { parseEntry } from "../src/core/entry/parse-entry.js";
import { ERROR_CODES, type ErrorCode, LoreError } from "../src/core/errors/lore-error.js";
import { IMPORT_SKIP_MESSAGES } from "../src/core/import/import-rule-skip.js";
import { statusOf } from "../src/http/http-status.js";

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

  it("closes every code fence on a line of its own, before the next one opens", () => {
    // A fence closed mid-line (```` ``` text ````) leaves the block open: the rest of the
    // README renders as code and the blocks after it pair up wrongly.
    const problems: string[] = [];
    let open: number | undefined;
    README.split("\n").forEach((line, i) => {
      const fence = /^\s*```(.*)$/.exec(line);
      if (fence === null) return;
      if (open === undefined) open = i + 1;
      else if ((fence[1] ?? "").trim() === "") open = undefined;
      else problems.push(`line ${i + 1} opens a block inside the one opened at line ${open}`);
    });
    if (open !== undefined) problems.push(`the block opened at line ${open} is never closed`);
    expect(problems).toEqual([]);
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

  it("gives every error code its CLI exit code and the HTTP status the server answers it with", () => {
    const section = README.split("### Error codes")[1]?.split("\n### ")[0] ?? "";
    expect(section).toContain("| code | exit | HTTP | meaning |");
    const rows = new Map(
      [...section.matchAll(/^\| `(\w+)` \| (\d+) \| (\d{3}) \|/gm)].map((m) => [
        m[1] ?? "",
        { exit: Number(m[2]), http: Number(m[3]) },
      ]),
    );
    expect(rows.get("rate_limited")).toEqual({ exit: 6, http: 429 });
    expect(rows.get("license_required")).toEqual({ exit: 5, http: 402 });
    expect(rows.get("request_too_large")).toEqual({ exit: 2, http: 413 });
    expect(rows.get("batch_too_large")).toEqual({ exit: 2, http: 400 });
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const error = new LoreError(code);
      expect(rows.get(code), code).toEqual({
        exit: exitCodeFor(error.kind),
        http: statusOf(error),
      });
    }
  });

  it("lists every notice, doctor finding and import skip code in a table", () => {
    const codes = [...NOTICE_CODES, ...DOCTOR_CODES, ...Object.keys(IMPORT_SKIP_MESSAGES)];
    expect(codes).toContain("registry_line_malformed");
    expect(codes).toContain("not_knowledge");
    for (const code of codes) {
      expect(README, code).toMatch(new RegExp(`^\\| \`${code}\` +\\|`, "m"));
    }
  });

  it("lists every bracketed code the sources print, [code], in a table", () => {
    const printed = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
          for (const m of readFileSync(path, "utf8").matchAll(/\[([a-z]+_[a-z_]+)\]/g)) {
            printed.add(m[1] ?? "");
          }
        }
      }
    };
    walk(join(ROOT, "src"));
    expect(printed).toContain("worktree_differs");
    for (const code of printed) {
      expect(README, code).toMatch(new RegExp(`^\\| \`${code}\` +\\|`, "m"));
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
    expect(tools).toHaveLength(23);
    const yesNo = (value: boolean) => (value ? "yes" : "no");
    for (const tool of tools) {
      const row = `| \`${tool.name}\` | ${yesNo(tool.readOnly)} | ${yesNo(tool.outputSchema)} |`;
      expect(README).toContain(row);
    }
    expect(README).not.toMatch(/Every tool is annotated `readOnlyHint: true`/);
  });
});
