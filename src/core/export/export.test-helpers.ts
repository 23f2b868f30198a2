/** Entries the export renderers' tests share (test support, not a test). */
import { expect } from "vitest";
import type { Entry } from "../entry/entry.js";
import { readSourceFrontmatter } from "../import/import-rule-frontmatter.js";
import type { ExportEntry } from "./export-entry.js";

export const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
export const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
export const C = "01921938-b600-7344-b7bb-b0d96211fc5a";

export function item(
  id: string,
  path: string,
  over: Partial<Entry> = {},
  summary?: string,
): ExportEntry {
  const entry: Entry = {
    id,
    contract: [{ mechanism: "on_query", params: { words: ["rollback", "релиз"] } }],
    origin: "human",
    links: [],
    unknownKeys: {},
    body: "Roll back with helm rollback.\n\nNever redeploy the old tag.\n",
    ...over,
  };
  return { entry, summary: summary ?? "Roll back with helm rollback.", path };
}

export const ENTRIES: ExportEntry[] = [
  item(
    B,
    ".gitriver/knowledge/ops/migrations.md",
    {
      contract: [{ mechanism: "on_tool", params: { name: "run_migration" } }],
      origin: "agent",
      body: "Run production migrations with a lock timeout.\n",
    },
    "Run production migrations with a lock timeout.",
  ),
  item(
    A,
    ".gitriver/knowledge/deploy.md",
    { links: [B], summary: "Rollbacks: helm, not redeploys" },
    "Rollbacks: helm, not redeploys",
  ),
  item(
    C,
    ".gitriver/knowledge/ops/hooks.md",
    {
      contract: [
        { mechanism: "on_query", params: { words: ["hook"] } },
        { mechanism: "on_path", params: { glob: "hooks/**" } },
        { mechanism: "on_path", params: { globs: ["src/**/*.ts", "hooks/**"] } },
      ],
      body: "# Hooks\n\nThe pre-receive hook must never commit.\n",
    },
    "Hooks — The pre-receive hook must never commit.",
  ),
];

/** The front matter of a rendered file, read as Cursor and skill loaders read it. */
export function frontMatter(text: string): Map<string, unknown> {
  expect(text.startsWith("---\n")).toBe(true);
  const read = readSourceFrontmatter(text);
  expect(read.kind === "yaml" || read.kind === "lines").toBe(true);
  return read.fields;
}
