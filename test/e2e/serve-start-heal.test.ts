import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROTECTED_MARKER } from "../../src/core/push/hook-script.js";
import { openIndex } from "../../src/index/entry-index.js";
import { entryFile } from "../http/team-fixture.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

/**
 * `lore serve` heals at start (seed 004, "Разбор при отправке": self-healing): a hosted
 * repository whose default branch moved while no server ran — here a push with hooks off —
 * has its index brought up to date in the background after the server listens, with no
 * read asking for it; and the protection markers are put back in step with the rules.
 */
const home = isolatedEnv();
const data = join(home.env.XDG_DATA_HOME ?? "", "lore", "server");
const bare = (name: string) => join(data, "repos", "acme", `${name}.git`);
const work = join(home.dir, "work");
let served: ServedLore | undefined;

afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

const ID_A = "0193b000-0000-7000-8000-0000000000a1";
const ID_B = "0193b000-0000-7000-8000-0000000000b2";

/** Runs the real git client in the work tree. */
function git(args: readonly string[]): string {
  const run = spawnSync("git", args, {
    cwd: work,
    encoding: "utf8",
    env: {
      ...home.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

/** The commit the index records for acme/app, and its entry ids. */
function indexed(): { commit: string | null | undefined; ids: string[] } {
  const index = openIndex(home.env.LORE_DB ?? "");
  try {
    const ids = index
      .entriesById(ID_A)
      .concat(index.entriesById(ID_B))
      .map((e) => e.id);
    return { commit: index.repository("acme/app")?.commit, ids: ids.sort() };
  } finally {
    index.close();
  }
}

async function until<T>(probe: () => T, holds: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = probe();
  while (!holds(value) && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = probe();
  }
  return value;
}

describe("lore serve at start", () => {
  it("heals a hosted repository whose branch moved while it was down, and the markers", async () => {
    const options = { cwd: home.dir, env: home.env };
    for (const args of [
      ["repo", "create", "acme/app"],
      ["repo", "create", "acme/guarded"],
      ["branch", "protect", "acme/guarded", "main"],
    ]) {
      const run = await runLore(args, options);
      expect(run.code, run.stderr).toBe(0);
    }
    expect(existsSync(join(bare("guarded"), PROTECTED_MARKER))).toBe(true);
    mkdirSync(join(work, ".gitriver", "knowledge"), { recursive: true });
    git(["init", "-q", "-b", "main"]);
    writeFileSync(join(work, ".gitriver", "knowledge", "a.md"), entryFile(ID_A, ["альфа"], "A"));
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "a"]);
    // With Lore's hooks: post-receive indexes the default branch.
    git(["push", "-q", bare("app"), "main"]);
    const first = git(["rev-parse", "HEAD"]);
    expect(indexed()).toEqual({ commit: first, ids: [ID_A] });
    // With the hooks off: the branch moves, the index does not.
    writeFileSync(join(work, ".gitriver", "knowledge", "b.md"), entryFile(ID_B, ["бета"], "B"));
    git(["add", "-A"]);
    git(["commit", "-q", "-m", "b"]);
    const hooks = join(bare("app"), "hooks");
    renameSync(hooks, `${hooks}.off`);
    git(["push", "-q", bare("app"), "main"]);
    renameSync(`${hooks}.off`, hooks);
    const second = git(["rev-parse", "HEAD"]);
    expect(indexed().commit).toBe(first);
    // A marker lost while the server was down (a restore from backup) comes back.
    rmSync(join(bare("guarded"), PROTECTED_MARKER));

    served = await startServe(["--port", "0"], options);
    const healed = await until(indexed, (now) => now.commit === second, 30_000);
    expect(healed).toEqual({ commit: second, ids: [ID_A, ID_B].sort() });
    expect(existsSync(join(bare("guarded"), PROTECTED_MARKER))).toBe(true);
    expect(existsSync(join(bare("app"), PROTECTED_MARKER))).toBe(false);
  });
});
