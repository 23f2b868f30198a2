import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import { type RootsContext, readKnowledgeFile, writeKnowledgeFile } from "./knowledge-files.js";

let tmp: string;
let ctx: RootsContext;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(tmp, path)), { recursive: true });
  writeFileSync(join(tmp, path), text);
}

/** Every file under a folder with its content: a snapshot of the disk. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (name.isFile()) {
      const full = join(name.parentPath, name.name);
      out[full.slice(dir.length)] = readFileSync(full, "utf8");
    }
  }
  return out;
}

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "lore-roots-"));
  put("notes/knowledge/mine.md", "# mine\n");
  put(
    "notes/knowledge/work/local/knowledge-roots-index-v1.md",
    "group/ => group\ngroup/local-copy.md => user\n",
  );
  put("group/knowledge/group/smoke-test-v1.md", "# smoke\nGroup smoke file.\n");
  put("outside/secret.md", "secret\n");
  const roots: KnowledgeRoot[] = [
    { id: "primary", kind: "primary", path: join(tmp, "notes"), writable: true },
    { id: "group", kind: "read_only", path: join(tmp, "group"), writable: false },
    { id: "gone", kind: "read_only", path: join(tmp, "missing"), writable: false },
  ];
  ctx = { roots };
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("readKnowledgeFile", () => {
  it("reads primary by default and a read-only root by id (any case)", async () => {
    expect(await readKnowledgeFile(ctx, { file_path: "mine.md" })).toEqual({
      root: "primary",
      kind: "primary",
      file_path: "mine.md",
      text: "# mine\n",
      bytes: 7,
    });
    const smoke = await readKnowledgeFile(ctx, {
      file_path: "group/smoke-test-v1.md",
      knowledge_root_id: "GROUP",
    });
    expect(smoke).toMatchObject({
      root: "group",
      kind: "read_only",
      text: "# smoke\nGroup smoke file.\n",
    });
  });

  it("says where the text lives when the registry points to another root", async () => {
    const answer = await readKnowledgeFile(ctx, { file_path: "group/smoke-test-v1.md" });
    expect(answer).toEqual({
      root: "primary",
      kind: "primary",
      file_path: "group/smoke-test-v1.md",
      text: null,
      bytes: 0,
      lives_in: { root: "group", registry_line: 1, entry: "group/ => group" },
    });
  });

  it("reads by knowledge_path of a configured root, refuses both arguments", async () => {
    const answer = await readKnowledgeFile(ctx, {
      file_path: "group/smoke-test-v1.md",
      knowledge_path: `${join(tmp, "group")}/`,
    });
    expect(answer.root).toBe("group");
    await expect(
      readKnowledgeFile(ctx, {
        file_path: "x.md",
        knowledge_root_id: "group",
        knowledge_path: tmp,
      }),
    ).rejects.toMatchObject({ code: "root_args_conflict" });
  });

  it("refuses a knowledge_path not configured when remote", async () => {
    await expect(
      readKnowledgeFile(
        { ...ctx, allowUnconfiguredPath: false },
        { file_path: "secret.md", knowledge_path: join(tmp, "outside") },
      ),
    ).rejects.toMatchObject({ code: "root_not_configured" });
  });

  it.each(["../outside/secret.md", "/etc/passwd", "C:\\x.md", "a\u0000.md"])(
    "refuses %j with path_outside_root",
    async (path) => {
      await expect(readKnowledgeFile(ctx, { file_path: path })).rejects.toMatchObject({
        code: "path_outside_root",
      });
    },
  );

  it("refuses a real symlink that leads outside the root", async () => {
    symlinkSync(join(tmp, "outside", "secret.md"), join(tmp, "notes", "knowledge", "link.md"));
    symlinkSync(join(tmp, "outside"), join(tmp, "notes", "knowledge", "linkdir"));
    await expect(readKnowledgeFile(ctx, { file_path: "link.md" })).rejects.toMatchObject({
      code: "path_outside_root",
      data: { reason: "symlink_escape" },
    });
    await expect(readKnowledgeFile(ctx, { file_path: "linkdir/secret.md" })).rejects.toMatchObject({
      code: "path_outside_root",
    });
    await expect(
      writeKnowledgeFile(ctx, { file_path: "linkdir/new.md", content: "x" }),
    ).rejects.toMatchObject({ code: "path_outside_root" });
    expect(snapshot(join(tmp, "outside"))).toEqual({ "/secret.md": "secret\n" });
  });

  it("reports a missing root folder and a missing file", async () => {
    await expect(
      readKnowledgeFile(ctx, { file_path: "x.md", knowledge_root_id: "gone" }),
    ).rejects.toMatchObject({ code: "root_missing" });
    await expect(readKnowledgeFile(ctx, { file_path: "nope.md" })).rejects.toMatchObject({
      code: "path_not_found",
    });
    await expect(
      readKnowledgeFile(ctx, { file_path: "x.md", knowledge_root_id: "team" }),
    ).rejects.toMatchObject({ code: "unknown_root" });
  });
});

describe("writeKnowledgeFile", () => {
  it("creates, refuses to create twice, replaces and appends in primary", async () => {
    expect(await writeKnowledgeFile(ctx, { file_path: "new/a.md", content: "one\n" })).toEqual({
      root: "primary",
      file_path: "new/a.md",
      mode: "create",
      created: true,
      bytes: 4,
    });
    await expect(
      writeKnowledgeFile(ctx, { file_path: "new/a.md", content: "x" }),
    ).rejects.toMatchObject({ code: "file_exists" });
    await writeKnowledgeFile(ctx, { file_path: "new/a.md", content: "two\n", mode: "append" });
    expect(readFileSync(join(tmp, "notes/knowledge/new/a.md"), "utf8")).toBe("one\ntwo\n");
    await writeKnowledgeFile(ctx, { file_path: "new/a.md", content: "three\n", mode: "replace" });
    expect(readFileSync(join(tmp, "notes/knowledge/new/a.md"), "utf8")).toBe("three\n");
    // no temp file is left behind
    expect(readdirSync(join(tmp, "notes/knowledge/new"))).toEqual(["a.md"]);
  });

  it("refuses read-only roots with read_only_root naming the root, leaving the disk untouched", async () => {
    const before = snapshot(tmp);
    for (const mode of ["create", "replace", "append"] as const) {
      await expect(
        writeKnowledgeFile(ctx, {
          file_path: "group/smoke-test-v1.md",
          content: "overwritten",
          mode,
          knowledge_root_id: "group",
        }),
      ).rejects.toMatchObject({
        code: "read_only_root",
        message:
          "knowledge root group is read-only: writes go to the primary root only; nothing was written",
      });
    }
    await expect(
      writeKnowledgeFile(ctx, {
        file_path: "fresh.md",
        content: "x",
        knowledge_path: join(tmp, "group"),
      }),
    ).rejects.toMatchObject({ code: "read_only_root", data: { root: "group" } });
    expect(snapshot(tmp)).toEqual(before);
  });
});
