import { lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ExportEntry, ExportFormat } from "../../core/export/export-entry.js";
import { importFolder } from "../import/import-folder.js";
import { writeExport } from "./write-export.js";

const A = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const B = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";
const C = "01921938-b600-7344-b7bb-b0d96211fc5a";

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lore-export-"));
  temps.push(dir);
  return dir;
}

function entry(id: string, path: string, body: string, words: string[]): ExportEntry {
  return {
    path,
    summary: body.split("\n")[0] ?? "",
    entry: {
      id,
      contract: [{ mechanism: "on_query", params: { words } }],
      origin: "human",
      links: [],
      unknownKeys: {},
      body,
    },
  };
}

const ENTRIES = [
  entry(A, ".gitriver/knowledge/deploy.md", "Roll back with helm rollback.\n", ["rollback"]),
  entry(B, ".gitriver/knowledge/ops/db.md", "Migrations take a lock timeout.\n", ["migration"]),
  entry(C, ".gitriver/knowledge/ops/hooks.md", "Hooks never commit.\n", ["hook"]),
];

/** Every file under a folder with its bytes, `/`-separated paths. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string, prefix: string) => {
    for (const item of await readdir(at, { withFileTypes: true })) {
      const path = prefix === "" ? item.name : `${prefix}/${item.name}`;
      if (item.isDirectory()) await walk(join(at, item.name), path);
      else out[path] = await readFile(join(at, item.name), "utf8");
    }
  };
  await walk(dir, "");
  return out;
}

const FORMATS: ExportFormat[] = ["agents-md", "cursor", "skills"];

describe("writeExport", () => {
  for (const format of FORMATS) {
    it(`${format}: writes, is byte-identical on a second run, and imports back with the same ids`, async () => {
      const out = await temp();
      const first = await writeExport({ format, entries: ENTRIES, out });
      expect(first.ids.sort()).toEqual([A, B, C].sort());
      expect(first.written.length).toBeGreaterThan(0);
      expect(first.unchanged).toEqual([]);
      const before = await tree(out);
      const second = await writeExport({ format, entries: [...ENTRIES].reverse(), out });
      expect(second.written).toEqual([]);
      expect(second.removed).toEqual([]);
      expect(second.unchanged).toEqual(first.written);
      expect(await tree(out)).toEqual(before);

      const into = await temp();
      const report = await importFolder({
        from: out,
        to: into,
        mintId: () => {
          throw new Error("no id may be minted for exported entries");
        },
      });
      expect(report.skipped).toEqual([]);
      expect(report.imported.flatMap((file) => file.ids).sort()).toEqual([A, B, C].sort());
      for (const item of ENTRIES) {
        const text = await readFile(join(into, `${item.entry.id}.md`), "utf8");
        expect(text).toContain(`id: ${item.entry.id}`);
        expect(text.endsWith(`\n${item.entry.body}`)).toBe(true);
      }
    });
  }

  it("agents-md: keeps the user's AGENTS.md text outside Lore's section", async () => {
    const out = await temp();
    const mine = "# Our agents\n\nAlways run `npm test`.\n";
    await writeFile(join(out, "AGENTS.md"), mine);
    await writeExport({ format: "agents-md", entries: ENTRIES, out });
    const once = await readFile(join(out, "AGENTS.md"), "utf8");
    expect(once.startsWith(mine)).toBe(true);
    // The user writes more below Lore's section; a re-export with fewer entries keeps it.
    await writeFile(join(out, "AGENTS.md"), `${once}\n## After\n\nMine too.\n`);
    const report = await writeExport({ format: "agents-md", entries: ENTRIES.slice(0, 1), out });
    expect(report.written).toEqual(["AGENTS.md"]);
    const twice = await readFile(join(out, "AGENTS.md"), "utf8");
    expect(twice.startsWith(mine)).toBe(true);
    expect(twice.endsWith("\n## After\n\nMine too.\n")).toBe(true);
    expect(twice).not.toContain(B);
    // Importing it gives Lore's entry back by id and the user's text as a fresh entry.
    const into = await temp();
    let minted = 0;
    const imported = await importFolder({
      from: join(out, "AGENTS.md"),
      to: into,
      mintId: () => `0190f5a4-3b2c-7d10-8a11-${(++minted).toString(16).padStart(12, "0")}`,
    });
    expect(imported.imported).toEqual([
      { path: "AGENTS.md", ids: [A, "0190f5a4-3b2c-7d10-8a11-000000000001"] },
    ]);
    const user = await readFile(join(into, "0190f5a4-3b2c-7d10-8a11-000000000001.md"), "utf8");
    expect(user).toContain("Always run `npm test`.");
    expect(user).not.toContain("lore:entry");
  });

  it("cursor and skills: removes Lore's files of entries gone, never the user's", async () => {
    const out = await temp();
    const mineRule = ".cursor/rules/lore/mine.mdc";
    const mineSkill = ".claude/skills/mine/SKILL.md";
    for (const [path, text] of [
      [mineRule, "---\ndescription: mine\nglobs:\nalwaysApply: true\n---\nMy rule.\n"],
      [mineSkill, "---\nname: mine\ndescription: Mine.\n---\nMy skill.\n"],
    ] as const) {
      await mkdir(dirname(join(out, path)), { recursive: true });
      await writeFile(join(out, path), text);
    }
    for (const format of ["cursor", "skills"] as const) {
      const first = await writeExport({ format, entries: ENTRIES, out });
      const gone = first.written.find((path) => path.includes("6211fc5a"));
      expect(gone).toBeDefined();
      const next = await writeExport({ format, entries: ENTRIES.slice(0, 2), out });
      expect(next.removed).toEqual([gone]);
      expect(next.written).toEqual([]);
      await expect(lstat(join(out, gone ?? ""))).rejects.toThrow();
      if (format === "skills")
        await expect(lstat(dirname(join(out, gone ?? "")))).rejects.toThrow();
    }
    expect(await readFile(join(out, mineRule), "utf8")).toContain("My rule.");
    expect(await readFile(join(out, mineSkill), "utf8")).toContain("My skill.");
  });

  it("refuses to overwrite a user's file where a rule goes, writing nothing", async () => {
    const out = await temp();
    const first = await writeExport({ format: "cursor", entries: ENTRIES, out });
    const target = join(out, first.written[0] ?? "");
    await writeFile(target, "---\ndescription: now mine\n---\nMine.\n");
    const other = join(out, first.written[1] ?? "");
    const otherBefore = await readFile(other, "utf8");
    const changed = ENTRIES.map((item) => ({
      ...item,
      entry: { ...item.entry, origin: "agent" as const },
    }));
    await expect(writeExport({ format: "cursor", entries: changed, out })).rejects.toMatchObject({
      code: "file_exists",
    });
    expect(await readFile(target, "utf8")).toContain("now mine");
    expect(await readFile(other, "utf8")).toBe(otherBefore);
  });

  it("refuses a symbolic link where a skill goes", async () => {
    const out = await temp();
    const first = await writeExport({ format: "skills", entries: ENTRIES.slice(0, 1), out });
    const skill = join(out, first.written[0] ?? "");
    await rm(skill);
    await writeFile(join(out, "elsewhere.md"), "x");
    await symlink(join(out, "elsewhere.md"), skill);
    await expect(
      writeExport({ format: "skills", entries: ENTRIES.slice(0, 1), out }),
    ).rejects.toMatchObject({ code: "file_exists" });
    expect(await readFile(join(out, "elsewhere.md"), "utf8")).toBe("x");
  });

  it("refuses an --out that is a file, and a file where a folder goes", async () => {
    const dir = await temp();
    const file = join(dir, "plain.txt");
    await writeFile(file, "x");
    await expect(
      writeExport({ format: "cursor", entries: ENTRIES, out: file }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("is a file"),
    });
    await writeFile(join(dir, ".cursor"), "x");
    await expect(
      writeExport({ format: "cursor", entries: ENTRIES, out: dir }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining(".cursor is a file"),
    });
  });

  it("agents-md: refuses damaged markers and leaves the file as it was", async () => {
    const out = await temp();
    const damaged = "# Mine\n\n<!-- lore:begin -->\nhalf a section\n";
    await writeFile(join(out, "AGENTS.md"), damaged);
    await expect(writeExport({ format: "agents-md", entries: ENTRIES, out })).rejects.toMatchObject(
      {
        code: "invalid_input",
      },
    );
    expect(await readFile(join(out, "AGENTS.md"), "utf8")).toBe(damaged);
  });
});
