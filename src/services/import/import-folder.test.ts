import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEntry } from "../../core/entry/parse-entry.js";
import type { ExportEntry } from "../../core/export/export-entry.js";
import { renderAgentsSection } from "../../core/export/render-agents-md.js";
import { renderCursorRules } from "../../core/export/render-cursor.js";
import { importFolder } from "./import-folder.js";

const temps: string[] = [];

afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lore-import-"));
  temps.push(dir);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

function minter(): () => string {
  let n = 0;
  return () => `0190f5a4-3b2c-7d10-8a11-${(++n).toString(16).padStart(12, "0")}`;
}

describe("importFolder", () => {
  it("imports knowledge files in sorted path order and reports every other file", async () => {
    const from = await folder({
      "b/SKILL.md": "---\nname: beta\ndescription: Beta skill.\n---\nUse beta.\n",
      "a/AGENTS.md": "# Agents\n\nRun tests before commit.\n",
      "a/CLAUDE.md": "AGENTS.md",
      "c/.cursorrules": "You are an expert in Go.\n",
      "c/empty.md": "",
      "c/LICENSE.txt": "MIT",
      "c/data.json": "{}",
      "c/bin.md": new Uint8Array([0x41, 0, 0x42]),
      ".git/HEAD.md": "ref: refs/heads/main\n",
    });
    await symlink(join(from, "a/AGENTS.md"), join(from, "link.md"));
    const to = join(from, "out");
    const report = await importFolder({ from, to, mintId: minter() });

    expect(report.imported).toEqual([
      { path: "a/AGENTS.md", ids: ["0190f5a4-3b2c-7d10-8a11-000000000001"] },
      { path: "b/SKILL.md", ids: ["0190f5a4-3b2c-7d10-8a11-000000000002"] },
      { path: "c/.cursorrules", ids: ["0190f5a4-3b2c-7d10-8a11-000000000003"] },
    ]);
    expect(report.skipped.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "a/CLAUDE.md", code: "link_stub" },
      { path: "c/LICENSE.txt", code: "not_knowledge" },
      { path: "c/bin.md", code: "binary" },
      { path: "c/data.json", code: "not_knowledge" },
      { path: "c/empty.md", code: "empty" },
      { path: "link.md", code: "symlink" },
    ]);
    expect(report.skipped[0]?.message).toBe(
      "the file only names another file (a/AGENTS.md), which is imported itself",
    );
    expect(report.written).toEqual(
      report.imported.map((file) => join(to, `${file.ids[0] as string}.md`)),
    );
    expect((await readdir(to)).sort()).toEqual(report.written.map((p) => p.slice(to.length + 1)));
    for (const path of report.written) {
      const parsed = parseEntry(await readFile(path), { mode: "strict", path });
      expect(parsed.value?.entry.origin).toBe("human");
    }
    const skill = await readFile(report.written[1] as string, "utf8");
    expect(skill).toContain("- path: b/SKILL.md\n- name: beta\n- description: Beta skill.\n");
  });

  it("gives Russian messages with lang ru, and refuses a missing folder", async () => {
    const from = await folder({ "x.md": " \n" });
    const report = await importFolder({
      from,
      to: join(from, "out"),
      mintId: minter(),
      lang: "ru",
    });
    expect(report.skipped).toEqual([
      {
        path: "x.md",
        code: "empty",
        message: "в файле нет текста (ни буквы, ни цифры); не импортирован",
      },
    ]);
    await expect(
      importFolder({ from: join(from, "missing"), to: join(from, "o"), mintId: minter() }),
    ).rejects.toMatchObject({ code: "path_not_found" });
  });

  it("refuses to overwrite an entry file (a broken minter)", async () => {
    const from = await folder({ "a.md": "A.\n", "b.md": "B.\n" });
    const id = "0190f5a4-3b2c-7d10-8a11-000000000001";
    await expect(
      importFolder({ from, to: join(from, "out"), mintId: () => id }),
    ).rejects.toMatchObject({ code: "file_exists" });
  });

  it("gives exported entries back by id, never taking an id the repository holds", async () => {
    const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
    const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
    const item = (id: string, body: string): ExportEntry => ({
      path: `.gitriver/knowledge/${id}.md`,
      summary: body.trim(),
      entry: {
        id,
        contract: [{ mechanism: "on_query", params: { words: ["x"] } }],
        origin: "human",
        links: [],
        unknownKeys: {},
        body,
      },
    });
    const [ruleA, ruleB] = renderCursorRules([item(A, "Rule A.\n"), item(B, "Rule B.\n")]);
    const entryOfA = `---\nid: ${A}\ncontract: []\n---\n\nAlready here.\n`;
    const from = await folder({
      "rules/a.mdc": ruleA?.text ?? "",
      "rules/b.mdc": ruleB?.text ?? "",
      // The same rule twice in one run: the first (in path order) is written, the copy is not.
      "rules/copy-of-b.mdc": ruleB?.text ?? "",
      "rules/broken.mdc": (ruleA?.text ?? "").replace('"origin":"human"', '"origin":"robot"'),
      "knowledge/old/a.md": entryOfA,
    });
    const to = join(from, "knowledge", "imported");
    const report = await importFolder({
      from: join(from, "rules"),
      to,
      mintId: minter(),
      entriesDir: join(from, "knowledge"),
    });
    expect(report.imported).toEqual([{ path: "b.mdc", ids: [B] }]);
    expect(report.skipped.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "a.mdc", code: "id_taken" },
      { path: "broken.mdc", code: "export_damaged" },
      { path: "copy-of-b.mdc", code: "id_taken" },
    ]);
    expect(report.skipped[0]?.message).toBe(
      `exported by Lore: the id ${A} is already held by old/a.md (1 of its entries); not imported again`,
    );
    expect(report.skipped[2]?.message).toContain(`imported/${B}.md`);
    expect(report.skipped[1]?.message).toContain("origin human or agent");
    expect(await readdir(to)).toEqual([`${B}.md`]);
  });

  it("names the taken ids of an AGENTS.md section whose other entries are written", async () => {
    const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
    const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
    const item = (id: string): ExportEntry => ({
      path: `.gitriver/knowledge/${id}.md`,
      summary: `Entry ${id}.`,
      entry: {
        id,
        contract: [{ mechanism: "on_tool", params: { name: "deploy" } }],
        origin: "agent",
        links: [],
        unknownKeys: {},
        body: `Entry ${id}.\n`,
      },
    });
    const from = await folder({
      "AGENTS.md": renderAgentsSection([item(A), item(B)]).text,
      [`out/${A}.md`]: `---\nid: ${A}\ncontract: []\n---\n\nHeld.\n`,
    });
    const report = await importFolder({
      from: join(from, "AGENTS.md"),
      to: join(from, "out"),
      mintId: minter(),
    });
    expect(report.imported).toEqual([
      { path: "AGENTS.md", ids: [B], taken: [{ id: A, path: `${A}.md` }] },
    ]);
  });

  it("reads an exported AGENTS.md over 3 MB for its Lore section; other large files stay too_large", async () => {
    const entries: ExportEntry[] = Array.from({ length: 60 }, (_, i) => {
      const id = `0190f5a4-3b2c-7d10-8a11-${(0x1000 + i).toString(16).padStart(12, "0")}`;
      return {
        path: `.gitriver/knowledge/${id}.md`,
        summary: `Entry ${i}.`,
        entry: {
          id,
          contract: [{ mechanism: "on_query", params: { words: [`word${i}`] } }],
          origin: "human",
          links: [],
          unknownKeys: {},
          body: `Entry ${i}.\n\n${"lorem ipsum ".repeat(5000)}\n`,
        },
      };
    });
    const section = renderAgentsSection(entries).text;
    expect(Buffer.byteLength(section)).toBeGreaterThan(3 * 1024 * 1024);
    const from = await folder({
      "AGENTS.md": `# Mine\n\nShort text of my own.\n\n${section}`,
      "notes/AGENTS.md": "x ".repeat(2 * 1024 * 1024),
    });
    const report = await importFolder({ from, to: join(from, "out"), mintId: minter() });
    expect(report.imported).toHaveLength(1);
    expect(report.imported[0]?.ids).toHaveLength(61);
    expect(report.imported[0]?.ids.slice(0, 60)).toEqual(entries.map((item) => item.entry.id));
    expect(report.skipped.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: "notes/AGENTS.md", code: "too_large" },
    ]);
  });
});
