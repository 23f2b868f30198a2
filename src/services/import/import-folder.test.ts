import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEntry } from "../../core/entry/parse-entry.js";
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
});
