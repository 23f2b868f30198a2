/**
 * YAML alias expansion bounded by size, through the real CLI: a 50 KB entry that repeats a
 * 45 KB string through aliases (184 MB once expanded) is diagnosed `frontmatter_too_large`
 * by `lore check`, `lore index`, `lore import` (a 54 KB `.mdc` rule) and a read-only
 * knowledge root alike, and the other files go on.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, runLore } from "./run-lore.js";

const BOMB_ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f71";
const GOOD_ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f72";

/** YAML that holds `text` once and repeats it 16 × 16 × 16 times through aliases. */
function aliasBomb(key: string, text: string): string {
  return [
    `${key}: &s "${text}"`,
    `a: &a [${Array(16).fill("*s").join(", ")}]`,
    `b: &b [${Array(16).fill("*a").join(", ")}]`,
    `c: [${Array(16).fill("*b").join(", ")}]`,
    "",
  ].join("\n");
}

const BOMB = `---\nid: ${BOMB_ID}\n${aliasBomb("summary", "x".repeat(45_000))}---\n\nRollback bomb body.\n`;
const GOOD = [
  "---",
  `id: ${GOOD_ID}`,
  "contract:",
  "  - mechanism: on_query",
  "    params:",
  '      words: ["rollback"]',
  "---",
  "",
  "Roll a release back with helm rollback.",
  "",
].join("\n");

let sandbox: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

beforeAll(async () => {
  sandbox = isolatedEnv();
  repo = await makeRepo({
    ".gitriver/knowledge/bomb.md": BOMB,
    ".gitriver/knowledge/good.md": GOOD,
  });
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

describe("a frontmatter whose aliases expand past 64 KB", () => {
  it("the entry is 50 KB at most", () => {
    expect(Buffer.byteLength(BOMB)).toBeGreaterThan(45_000);
    expect(Buffer.byteLength(BOMB)).toBeLessThanOrEqual(50 * 1024);
  });

  it("lore check: frontmatter_too_large, exit 7, the other file checked", async () => {
    const run = await runLore(["check", "--json"], { cwd: repo.dir, env: sandbox.env });
    expect(run.code, run.stderr).toBe(7);
    const report = JSON.parse(run.stdout) as {
      diagnostics: { code: string; path: string; line: number }[];
    };
    const wrong = report.diagnostics.filter((d) => d.code === "frontmatter_too_large");
    expect(wrong.map((d) => [d.path.endsWith("bomb.md"), d.line])).toEqual([[true, 2]]);
    expect(report.diagnostics.some((d) => d.path.endsWith("good.md"))).toBe(false);
    const text = await runLore(["check"], { cwd: repo.dir, env: sandbox.env });
    expect(text.stdout + text.stderr).toContain("[frontmatter_too_large]");
    expect(text.stdout + text.stderr).not.toContain("Invalid string length");
  });

  it("lore index: the file is skipped with the diagnostic, the index stays small, recall works", async () => {
    const db = join(sandbox.dir, "alias.db");
    const env = { ...sandbox.env, LORE_DB: db };
    const run = await runLore(["index", repo.dir], { cwd: repo.dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("[frontmatter_too_large]");
    expect(run.stdout).toMatch(/ 1 skipped\n/);
    // 184 MB expanded would have gone into the index; the whole folder stays small.
    const bytes = readdirSync(sandbox.dir)
      .filter((name) => name.startsWith("alias.db"))
      .reduce((sum, name) => sum + statSync(join(sandbox.dir, name)).size, 0);
    expect(bytes).toBeLessThan(5 * 1024 * 1024);
    const recall = await runLore(["recall", "rollback", "--json"], { cwd: repo.dir, env });
    expect(recall.code, recall.stderr).toBe(0);
    const hits = (JSON.parse(recall.stdout) as { hits: { id: string }[] }).hits;
    expect(hits.map((h) => h.id)).toEqual([GOOD_ID]);
  });

  it("lore import: a 54 KB .mdc rule is skipped frontmatter_too_large, the other imported", async () => {
    const from = join(sandbox.dir, "rules");
    mkdirSync(from, { recursive: true });
    const rule = `---\n${aliasBomb("description", "y".repeat(54_000))}globs: "**/*.ts"\nalwaysApply: false\n---\n\n# Bomb rule\n\nUse strict mode.\n`;
    expect(Buffer.byteLength(rule)).toBeGreaterThan(50 * 1024);
    expect(Buffer.byteLength(rule)).toBeLessThanOrEqual(54 * 1024);
    writeFileSync(join(from, "bomb.mdc"), rule);
    writeFileSync(
      join(from, "fine.mdc"),
      "---\ndescription: Run the linter before a commit\n---\n\nRun npm run lint.\n",
    );
    const out = join(sandbox.dir, "imported");
    const run = await runLore(["import", from, "--out", out, "--json"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      imported: { path: string }[];
      skipped: { path: string; code: string }[];
    };
    expect(report.skipped.map((s) => [s.path, s.code])).toEqual([
      ["bomb.mdc", "frontmatter_too_large"],
    ]);
    expect(report.imported.map((i) => i.path)).toEqual(["fine.mdc"]);
  });

  it("a read-only root holding the file: recall answers; the note is text, its contract is not read", async () => {
    const root = join(sandbox.dir, "group-kb");
    mkdirSync(join(root, "knowledge"), { recursive: true });
    writeFileSync(join(root, "knowledge", "bomb.md"), BOMB);
    writeFileSync(
      join(root, "knowledge", "good.md"),
      GOOD.replace(GOOD_ID, BOMB_ID.replace("71", "73")),
    );
    const config = join(sandbox.dir, "roots.toml");
    writeFileSync(config, `[[knowledge.read_only]]\nid = "group"\npath = '${root}'\n`);
    const env = { ...sandbox.env, LORE_DB: join(sandbox.dir, "roots.db") };
    const recall = await runLore(["recall", "rollback", "--json", "--config", config], {
      cwd: sandbox.dir,
      env,
    });
    expect(recall.code, recall.stderr).toBe(0);
    expect(recall.stderr).not.toContain("Invalid string length");
    const hits = (
      JSON.parse(recall.stdout) as { hits: { root?: string; path: string; why?: unknown }[] }
    ).hits;
    // good.md fires its contract and comes first; bomb.md is only a plain note, found by text.
    expect(hits.map((h) => [h.root, h.path])).toEqual([
      ["group", "good.md"],
      ["group", "bomb.md"],
    ]);
    expect(readFileSync(join(root, "knowledge", "bomb.md"), "utf8")).toBe(BOMB);
  });
});
