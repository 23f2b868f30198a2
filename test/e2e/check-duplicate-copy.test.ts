/**
 * The duplicate-id rule of `lore check` in a git work tree (seed 004, "дубликат
 * идентификатора в пачке"): a file as it is at HEAD held its id before, so copying it to
 * start a new entry blames the copy — the rule `lore index` applies with the previously
 * indexed commit — and with no history (no commit yet) the byte order of paths decides.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, runLore } from "./run-lore.js";

const K = ".gitriver/knowledge";
const ID = "0190f5a4-3b2c-7d10-8a11-0000000000c1";
const entry = (body: string) =>
  `---\nid: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words: [deploy]\n---\n\n${body}\n`;

let sandbox: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

beforeAll(async () => {
  sandbox = isolatedEnv();
  // `z-original.md` sorts after `a-copy.md`: byte order alone would blame the original.
  repo = await makeRepo({ [`${K}/z-original.md`]: entry("The original entry.") });
  copyFileSync(join(repo.dir, K, "z-original.md"), join(repo.dir, K, "a-copy.md"));
});
afterAll(async () => {
  await repo.cleanup();
  sandbox.cleanup();
});

describe("lore check and a copied entry", () => {
  it("blames the copy, not the untouched original, as lore index does", async () => {
    const check = await runLore(["check"], { cwd: repo.dir, env: sandbox.env });
    expect(check.code).toBe(7);
    expect(check.stdout).toContain(
      `${K}/a-copy.md: id ${ID} is already used by ${K}/z-original.md; skipped (id) [duplicate_id]`,
    );
    expect(check.stdout).not.toContain(`${K}/z-original.md: id ${ID}`);

    // The same repository indexed at HEAD, then with the copy committed: the copy is blamed.
    expect((await runLore(["index", repo.dir], { cwd: repo.dir, env: sandbox.env })).code).toBe(0);
    await repo.commit({ [`${K}/a-copy.md`]: entry("The original entry.") });
    const index = await runLore(["index", repo.dir], { cwd: repo.dir, env: sandbox.env });
    expect(index.stdout).toContain(`${K}/a-copy.md: id ${ID} is already used by`);
  });

  it("with no commit yet, byte order decides", async () => {
    const dir = join(sandbox.dir, "fresh");
    mkdirSync(join(dir, K), { recursive: true });
    writeFileSync(join(dir, K, "z-original.md"), entry("One."));
    writeFileSync(join(dir, K, "a-copy.md"), entry("Two."));
    const check = await runLore(["check"], { cwd: dir, env: sandbox.env });
    expect(check.code).toBe(7);
    expect(check.stdout).toContain(
      `${K}/z-original.md: id ${ID} is already used by ${K}/a-copy.md; skipped (id) [duplicate_id]`,
    );
  });
});
