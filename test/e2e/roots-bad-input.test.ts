/**
 * Bad input against the knowledge roots (seed 003): each case is a defect an adversarial
 * pass found — a long name, a folder where a file is expected, concurrent appends, a folder
 * swapped for a symbolic link mid-write, a linked `knowledge/` read by the indexer, a huge
 * registry, C1 control characters in TOML paths, and CLI inputs that crashed as `internal`.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/core/config/config.js";
import type { KnowledgeRoot } from "../../src/core/roots/knowledge-roots.js";
import { openIndex } from "../../src/index/entry-index.js";
import { indexRoots } from "../../src/services/indexing/index-roots.js";
import { recall } from "../../src/services/knowledge/recall.js";
import {
  type RootsContext,
  readKnowledgeFile,
  writeKnowledgeFile,
} from "../../src/services/roots/knowledge-files.js";
import {
  MAX_OVERLAY_LINES,
  MAX_PREVIEWS,
  routeContext,
} from "../../src/services/roots/route-context.js";
import { isolatedEnv, runLore } from "./run-lore.js";

let tmp: string;
let ctx: RootsContext;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(tmp, path)), { recursive: true });
  writeFileSync(join(tmp, path), text);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "lore-bad-roots-"));
  put("notes/knowledge/mine.md", "# mine\n");
  put("group/knowledge/g.md", "# g\n");
  put("outside/secret.md", "the launch codes are 1234\n");
  const roots: KnowledgeRoot[] = [
    { id: "primary", kind: "primary", path: join(tmp, "notes"), writable: true },
    { id: "group", kind: "read_only", path: join(tmp, "group"), writable: false },
  ];
  ctx = { roots, lockDir: join(tmp, "locks") };
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe("file_path the file system refuses", () => {
  it("a name over 255 bytes is invalid_input on read and write, not internal", async () => {
    const long = `${"a".repeat(300)}.md`;
    expect(await codeOf(readKnowledgeFile(ctx, { file_path: long }))).toBe("invalid_input");
    expect(await codeOf(writeKnowledgeFile(ctx, { file_path: long, content: "x" }))).toBe(
      "invalid_input",
    );
    expect(readdirSync(join(tmp, "notes/knowledge"))).toEqual(["mine.md"]);
  });

  it("replace or append onto a folder is invalid_input, and the folder is untouched", async () => {
    put("notes/knowledge/sub/inner.md", "inner\n");
    for (const mode of ["replace", "append"] as const) {
      expect(await codeOf(writeKnowledgeFile(ctx, { file_path: "sub", content: "x", mode }))).toBe(
        "invalid_input",
      );
    }
    expect(readdirSync(join(tmp, "notes/knowledge/sub"))).toEqual(["inner.md"]);
  });

  it("a path through a file is invalid_input", async () => {
    expect(await codeOf(writeKnowledgeFile(ctx, { file_path: "mine.md/x.md", content: "x" }))).toBe(
      "invalid_input",
    );
  });
});

describe("concurrent writes", () => {
  it("30 concurrent appends to one file keep every line, and leave no temp or lock file", async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        writeKnowledgeFile(ctx, { file_path: "log.md", content: `line ${i}\n`, mode: "append" }),
      ),
    );
    const lines = readFileSync(join(tmp, "notes/knowledge/log.md"), "utf8").trim().split("\n");
    expect(lines.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `line ${i}`).sort());
    expect(readdirSync(join(tmp, "notes/knowledge")).sort()).toEqual(["log.md", "mine.md"]);
  });

  it("a lock left by a killed writer (dead pid) is taken over at once", async () => {
    // Locks live in ctx.lockDir, named by a hash of the file's real path.
    const real = join(realpathSync(join(tmp, "notes/knowledge")), "log.md");
    const name = `${createHash("sha256").update(real).digest("hex").slice(0, 40)}.lock`;
    mkdirSync(join(tmp, "locks"), { recursive: true });
    writeFileSync(join(tmp, "locks", name), "999999999");
    const started = Date.now();
    await writeKnowledgeFile(ctx, { file_path: "log.md", content: "x\n", mode: "append" });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(readFileSync(join(tmp, "notes/knowledge/log.md"), "utf8")).toBe("x\n");
    expect(existsSync(join(tmp, "locks", name))).toBe(false);
  });

  it("a user file named .<name>.lore-lock neither blocks the write nor is deleted", async () => {
    put("notes/knowledge/.log.md.lore-lock", "999999999");
    await writeKnowledgeFile(ctx, { file_path: "log.md", content: "y\n", mode: "append" });
    expect(readFileSync(join(tmp, "notes/knowledge/.log.md.lore-lock"), "utf8")).toBe("999999999");
  });
});

describe.skipIf(process.platform !== "linux")(
  "a folder swapped for a symbolic link mid-write",
  () => {
    it("never puts a file outside the root", async () => {
      const knowledge = join(tmp, "notes/knowledge");
      const out = join(tmp, "out");
      mkdirSync(out);
      let stop = false;
      const attacker = (async () => {
        for (let n = 0; !stop; n++) {
          try {
            rmSync(join(knowledge, "a"), { recursive: true, force: true });
            if (n % 2) symlinkSync(out, join(knowledge, "a"));
            else mkdirSync(join(knowledge, "a"));
          } catch {}
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const codes = new Set<string>();
      for (let i = 0; i < 600; i++) {
        const mode = i % 2 ? "replace" : "create";
        codes.add(
          await codeOf(writeKnowledgeFile(ctx, { file_path: `a/f${i}.md`, content: "x", mode })),
        );
      }
      stop = true;
      await attacker;
      expect(readdirSync(out)).toEqual([]);
      // Every refusal is a coded Lore error, never a raw errno (`internal`).
      for (const code of codes) {
        expect(["ok", "path_outside_root", "path_not_found", "file_exists"]).toContain(code);
      }
    });
  },
);

describe("the indexer and a linked knowledge/ folder", () => {
  it("does not index a knowledge/ that links out of its root (recall never shows it)", async () => {
    mkdirSync(join(tmp, "linked"));
    symlinkSync(join(tmp, "outside"), join(tmp, "linked/knowledge"));
    const roots: KnowledgeRoot[] = [
      ...ctx.roots,
      { id: "evil", kind: "read_only", path: join(tmp, "linked"), writable: false },
    ];
    expect(
      await codeOf(
        readKnowledgeFile({ roots }, { file_path: "secret.md", knowledge_root_id: "evil" }),
      ),
    ).toBe("path_outside_root");
    const index = openIndex(join(tmp, "index.db"));
    try {
      const runs = await indexRoots(index, roots);
      expect(runs.find((r) => r.root === "evil")).toMatchObject({ exists: false, notes: 0 });
      expect(recall(index, { query: "launch codes", user: "t" }).hits).toEqual([]);
    } finally {
      index.close();
    }
  });
});

describe("route_context with a huge registry", () => {
  it("caps the overlay's registry lines and previews", async () => {
    put("notes/agent-notes.md", "## knowledge-roots-routing-v1\nsee the registry\n");
    const lines = Array.from({ length: 5000 }, (_, i) => `many/f${i}.md => group`);
    put("notes/knowledge/work/local/knowledge-roots-index-v1.md", `${lines.join("\n")}\n`);
    for (let i = 0; i < 50; i++) put(`group/knowledge/many/f${i}.md`, `file ${i}\n`);
    const answer = await routeContext(ctx, "what is in group");
    expect(answer.knowledge_roots_overlay_applied).toBe(true);
    expect(answer.overlay?.registry_lines).toHaveLength(MAX_OVERLAY_LINES);
    expect(answer.overlay?.previews).toHaveLength(MAX_PREVIEWS);
    expect(answer.overlay?.registry_lines[0]?.text).toBe("many/f0.md => group");
  });
});

describe("TOML paths with C1 control characters (knowledge roots: TOML paths)", () => {
  it.each(['"D:\\x86"', '"/a\u0085b"'])("path = %s is config_invalid with the hint", (value) => {
    const result = parseConfig(`[knowledge]\nprimary = ${value}\n`);
    expect(result.value).toBeUndefined();
    expect(result.problems[0]).toMatchObject({ key: "knowledge.primary", line: 2 });
    expect(result.problems[0]?.message.en).toContain("control character");
  });
});

describe("CLI inputs that crashed as internal", () => {
  let env: ReturnType<typeof isolatedEnv>;
  beforeEach(() => {
    env = isolatedEnv();
    writeFileSync(join(env.dir, "lore.toml"), `[knowledge]\nprimary = '${join(tmp, "notes")}'\n`);
  });
  afterEach(() => env.cleanup());

  it("lore write --from a missing file or a folder", async () => {
    const config = join(env.dir, "lore.toml");
    const missing = await runLore(
      ["write", "x.md", "--from", join(tmp, "nope"), "--config", config],
      {
        cwd: env.dir,
        env: env.env,
      },
    );
    expect([missing.code, missing.stderr]).toEqual([
      3,
      expect.stringContaining("[path_not_found]"),
    ]);
    const folder = await runLore(["write", "x.md", "--from", tmp, "--config", config], {
      cwd: env.dir,
      env: env.env,
    });
    expect([folder.code, folder.stderr]).toEqual([2, expect.stringContaining("[invalid_input]")]);
  });

  it("lore init --notes on a file, or a path with a control character, writes nothing", async () => {
    put("afile", "x");
    const config = join(env.dir, "init.toml");
    const onFile = await runLore(["init", "--notes", join(tmp, "afile"), "--config", config], {
      cwd: env.dir,
      env: env.env,
    });
    expect([onFile.code, onFile.stderr]).toEqual([2, expect.stringContaining("[invalid_input]")]);
    const control = await runLore(["init", "--notes", join(tmp, "a\tb"), "--config", config], {
      cwd: env.dir,
      env: env.env,
    });
    expect([control.code, control.stderr]).toEqual([2, expect.stringContaining("[invalid_input]")]);
    expect(existsSync(join(tmp, "a\tb"))).toBe(false);
    expect(existsSync(config)).toBe(false);
  });

  it("lore init --notes with a quote in the path prints a TOML value that reads back", async () => {
    const config = join(env.dir, "quote.toml");
    const root = join(tmp, "it's");
    const run = await runLore(["init", "--notes", root, "--config", config], {
      cwd: env.dir,
      env: env.env,
    });
    expect(run.code).toBe(0);
    const printed = /primary = (.*)$/m.exec(run.stderr)?.[1] ?? "";
    expect(parseConfig(`[knowledge]\nprimary = ${printed}\n`).value?.knowledge?.primary).toBe(root);
  });
});
