/**
 * Self-healing, the hook environment and branch protection, with the real git client
 * pushing to a real bare repository (seed 004, "Разбор при отправке").
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { uuidV7Successor } from "../../src/core/entry/uuid7.js";
import { openIndex } from "../../src/index/entry-index.js";
import { hostedHealDeps } from "../../src/main/compose-hook.js";
import { openServerStore } from "../../src/main/open-server.js";
import type { PushRepo } from "../../src/ports/push-repo.js";
import { healRepoIndex, updateRepoIndex } from "../../src/services/push/heal-index.js";
import {
  type HostedPush,
  makeHostedPush,
  recordedCommit,
  storedFiles,
} from "../helpers/hosted-push.js";
import { entry, ID_A, ID_B, ID_C, K } from "../helpers/push-entries.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The lines of an installed hook that run Lore: its variables and its `node … hook` line. */
function loreLine(hosted: HostedPush, hook: string): string {
  const text = readFileSync(join(hosted.bare, "hooks", hook), "utf8");
  const line = text.split("\n").find((l) => l.includes(` hook ${hook} `));
  if (line === undefined) throw new Error("no node line");
  const env = text.split("\n").filter((l) => l.startsWith("LORE_") || l.startsWith("export "));
  return [...env, line.trim()].join("\n");
}

function writeHook(hosted: HostedPush, hook: string, text: string): void {
  writeFileSync(join(hosted.bare, "hooks", hook), text, { mode: 0o755 });
}

const target = (hosted: HostedPush) => ({
  fullName: "acme/app",
  dir: hosted.bare,
  defaultBranch: "main",
});

let hosted: HostedPush | undefined;
afterEach(async () => {
  await hosted?.cleanup();
  hosted = undefined;
});

describe("one writer of the index under lore serve", () => {
  it("post-receive leaves the index alone when the server says it indexes the push itself", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    const pushed = await hosted.push(["main"], { LORE_INDEXED_BY_SERVER: "1" });
    expect(pushed.exitCode).toBe(0);
    // The parse still reports (pre-receive), but nothing was indexed by the hook.
    expect(recordedCommit(hosted)).toBeUndefined();
    await hosted.work.commit({ [`${K}/b.md`]: entry(ID_B, "Roll back with helm.") });
    expect((await hosted.push(["main"])).exitCode).toBe(0);
    expect([...storedFiles(hosted).keys()].sort()).toEqual([`${K}/a.md`, `${K}/b.md`]);
  });
});

describe("self-healing", () => {
  it("a force push the hook did not index heals on the next read (incremental, then full once the old commit is gone)", async () => {
    hosted = await makeHostedPush({
      [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays."),
      [`${K}/b.md`]: entry(ID_B, "Roll back with helm."),
    });
    await hosted.push(["main"]);
    const before = recordedCommit(hosted);
    // The post-receive hook crashed (did nothing): the index stays behind.
    writeHook(hosted, "post-receive", "#!/bin/sh\nexit 0\n");
    await hosted.work.git(["checkout", "-q", "--orphan", "rewritten"]);
    await hosted.work.git(["rm", "-q", "-r", "--cached", "."]);
    await hosted.work.git(["clean", "-q", "-f", "-d"]);
    const rewritten = await hosted.work.commit({ [`${K}/c.md`]: entry(ID_C, "Cache the build.") });
    const forced = await hosted.push(["--force", "rewritten:main"]);
    expect(forced.exitCode).toBe(0);
    expect(recordedCommit(hosted)).toBe(before);
    const index = hosted.index();
    try {
      const healed = await updateRepoIndex(hostedHealDeps(index), target(hosted));
      expect(healed.how).toBe("incremental");
      expect(index.repository("acme/app")?.commit).toBe(rewritten);
      expect([...index.listFiles("acme/app").keys()]).toEqual([`${K}/c.md`]);
      expect(index.getEntry(ID_A, "acme/app")).toBeUndefined();
      expect((await updateRepoIndex(hostedHealDeps(index), target(hosted))).how).toBe("current");

      // Another force push, and the commit the index recorded is pruned away: full re-index.
      await hosted.work.commit({ [`${K}/d.md`]: entry(ID_A, "Deploy on Wednesdays.") });
      await hosted.work.git(["checkout", "-q", "--orphan", "again"]);
      const again = await hosted.work.commit({ [`${K}/e.md`]: entry(ID_B, "Roll forward.") });
      await hosted.push(["--force", "again:main"]);
      await runGit({ cwd: hosted.bare, args: ["reflog", "expire", "--expire=now", "--all"] });
      await runGit({ cwd: hosted.bare, args: ["gc", "-q", "--prune=now"] });
      const full = await updateRepoIndex(hostedHealDeps(index), target(hosted));
      expect(full.how).toBe("full");
      expect(index.repository("acme/app")?.commit).toBe(again);
    } finally {
      index.close();
    }
  });

  it("a read that joins a heal under way heals again when the branch moved past that heal's head", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    // Two pushes the hook does not index (as with hooks off): the branch moves twice.
    const off = { LORE_INDEXED_BY_SERVER: "1" };
    const second = await hosted.work.commit({ [`${K}/b.md`]: entry(ID_B, "Roll back.") });
    expect((await hosted.push(["main"], off)).exitCode).toBe(0);
    const index = hosted.index();
    try {
      const real = hostedHealDeps(index);
      // The first heal is held inside its transaction (at its diff) until the test lets it
      // go; the second reader's own look at the head is seen ending (its repository closed).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inside = () => {};
      const healing = new Promise<void>((resolve) => {
        inside = resolve;
      });
      let looked = () => {};
      const secondLooked = new Promise<void>((resolve) => {
        looked = resolve;
      });
      let opened = 0;
      const deps = {
        ...real,
        openRepo: (dir: string): PushRepo => {
          const repo = real.openRepo(dir);
          const n = ++opened;
          return {
            dir: repo.dir,
            changedKnowledge: async (from, to, prefix) => {
              if (n === 2) {
                inside();
                await held;
              }
              return repo.changedKnowledge(from, to, prefix);
            },
            refCommit: (ref) => repo.refCommit(ref),
            hasCommit: (sha) => repo.hasCommit(sha),
            isAncestor: (a, d) => repo.isAncestor(a, d),
            headBranch: () => repo.headBranch(),
            blobSizes: (shas) => repo.blobSizes(shas),
            readBlobs: (shas) => repo.readBlobs(shas),
            close: async () => {
              await repo.close();
              if (n === 3) looked();
            },
          } as PushRepo;
        },
      };
      // Opened: 1 = the first reader's look, 2 = its heal, 3 = the second reader's look.
      const first = updateRepoIndex(deps, target(hosted));
      await healing;
      const third = await hosted.work.commit({ [`${K}/c.md`]: entry(ID_C, "Cache the build.") });
      expect((await hosted.push(["main"], off)).exitCode).toBe(0);
      const later = updateRepoIndex(deps, target(hosted));
      await secondLooked;
      await new Promise((resolve) => setImmediate(resolve));
      release();
      expect((await first).commit).toBe(second);
      const joined = await later;
      expect(joined.commit).toBe(third);
      expect(index.repository("acme/app")?.commit).toBe(third);
      expect([...index.listFiles("acme/app").keys()].sort()).toEqual([
        `${K}/a.md`,
        `${K}/b.md`,
        `${K}/c.md`,
      ]);
    } finally {
      index.close();
    }
  });

  it("a recorded commit that no longer exists is healed by a full re-index", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    writeHook(hosted, "post-receive", "#!/bin/sh\nexit 0\n");
    await hosted.work.git(["checkout", "-q", "--orphan", "rewritten"]);
    const rewritten = await hosted.work.commit({ [`${K}/b.md`]: entry(ID_B, "Roll back.") });
    await hosted.push(["--force", "rewritten:main"]);
    await runGit({ cwd: hosted.bare, args: ["reflog", "expire", "--expire=now", "--all"] });
    await runGit({ cwd: hosted.bare, args: ["gc", "-q", "--prune=now"] });
    const gone = await runGit({
      cwd: hosted.bare,
      args: ["cat-file", "-e"],
      values: [`${recordedCommit(hosted)}^{commit}`],
      okExitCodes: [1, 128],
    });
    expect(gone.exitCode).not.toBe(0);
    const index = hosted.index();
    try {
      const healed = await updateRepoIndex(hostedHealDeps(index), target(hosted));
      expect(healed.how).toBe("full");
      expect(index.repository("acme/app")?.commit).toBe(rewritten);
      expect([...index.listFiles("acme/app").keys()].sort()).toEqual([`${K}/a.md`, `${K}/b.md`]);
    } finally {
      index.close();
    }
  });

  it("a post-receive killed (SIGKILL) mid-way leaves the previous index, and the next read heals", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    const before = recordedCommit(hosted);
    // The test variant: the real post-receive in the background, killed with SIGKILL as
    // soon as it holds the index's write lock (its transaction is open).
    const probe = join(hosted.root, "kill-when-writing.mjs");
    writeFileSync(
      probe,
      [
        'import { createRequire } from "node:module";',
        'import { writeFileSync } from "node:fs";',
        `const require = createRequire(${JSON.stringify(join(ROOT, "package.json"))});`,
        'const Database = require("better-sqlite3");',
        "const [db, pid, marker] = process.argv.slice(2);",
        "const until = Date.now() + 60_000;",
        "while (Date.now() < until) {",
        "  try { process.kill(Number(pid), 0); } catch { writeFileSync(marker, 'gone'); process.exit(0); }",
        "  let busy = false;",
        "  try {",
        "    const d = new Database(db, { fileMustExist: true });",
        "    d.pragma('busy_timeout = 0');",
        "    try { d.exec('BEGIN IMMEDIATE'); d.exec('ROLLBACK'); } catch (e) { busy = e.code === 'SQLITE_BUSY'; }",
        "    d.close();",
        "  } catch {}",
        "  if (busy) { process.kill(Number(pid), 'SIGKILL'); writeFileSync(marker, 'killed'); process.exit(0); }",
        "  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);",
        "}",
      ].join("\n"),
    );
    const marker = join(hosted.root, "kill-marker");
    const input = join(hosted.root, "post-receive-input");
    writeHook(
      hosted,
      "post-receive",
      [
        "#!/bin/sh",
        `cat > '${input}'`,
        `${loreLine(hosted, "post-receive")} < '${input}' &`,
        "pid=$!",
        `'${process.execPath}' '${probe}' '${hosted.db}' "$pid" '${marker}'`,
        "wait $pid",
        "exit 0",
        "",
      ].join("\n"),
    );
    const files: Record<string, string> = {};
    let id = ID_B;
    for (let i = 0; i < 3000; i++) {
      files[`${K}/bulk/n${i}.md`] = entry(id, `Note ${i} about deploys and rollbacks.`);
      id = uuidV7Successor(id);
    }
    const head = await hosted.work.commit(files);
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe("killed");
    // Killed inside its transaction: nothing of it was committed.
    expect(recordedCommit(hosted)).toBe(before);
    expect(storedFiles(hosted).size).toBe(1);
    const index = hosted.index();
    try {
      await healRepoIndex(hostedHealDeps(index), target(hosted));
      expect(index.repository("acme/app")?.commit).toBe(head);
      expect(index.listFiles("acme/app").size).toBe(3001);
    } finally {
      index.close();
    }
  });

  it("two readers healing at once (one connection, and two) neither corrupt nor double-index", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    writeHook(hosted, "post-receive", "#!/bin/sh\nexit 0\n");
    const files: Record<string, string> = {};
    let id = ID_B;
    for (let i = 0; i < 300; i++) {
      files[`${K}/n${i}.md`] = entry(id, `Note ${i}.`);
      id = uuidV7Successor(id);
    }
    const head = await hosted.work.commit(files);
    await hosted.push(["main"]);
    const one = openIndex(hosted.db);
    const two = openIndex(hosted.db);
    try {
      const results = await Promise.all([
        updateRepoIndex(hostedHealDeps(one), target(hosted)),
        updateRepoIndex(hostedHealDeps(one), target(hosted)),
        updateRepoIndex(hostedHealDeps(two), target(hosted)),
      ]);
      // Exactly one did the work; the others joined it (the same result) or found it done.
      const distinct = [...new Set(results)];
      expect(distinct.filter((r) => r.how === "incremental")).toHaveLength(1);
      expect(distinct.filter((r) => r.how !== "incremental").map((r) => r.how)).toEqual(
        distinct.slice(1).map(() => "current"),
      );
      expect(two.repository("acme/app")?.commit).toBe(head);
      expect(two.listFiles("acme/app").size).toBe(301);
      expect(two.entryCount()).toBe(301);
    } finally {
      one.close();
      two.close();
    }
  });
});

describe("the hook environment (case 4)", () => {
  it("in pre-receive a child git with a cleaned environment cannot see the pushed objects; one with the hook's environment can", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    const probe = join(hosted.root, "quarantine-probe.mjs");
    const out = join(hosted.root, "quarantine.json");
    const dist = (path: string) => JSON.stringify(join(ROOT, "dist", path));
    writeFileSync(
      probe,
      [
        'import { readFileSync, writeFileSync } from "node:fs";',
        'import { spawnSync } from "node:child_process";',
        `const { runGit } = await import(${dist("adapters/git-cli/run-git.js")});`,
        `const { hookReadEnvironment, withoutRepositoryLocation } = await import(${dist("core/push/hook-environment.js")});`,
        'const [, sha] = readFileSync(0, "utf8").trim().split(" ");',
        "const see = async (env) => (await runGit({ cwd: process.cwd(), args: ['cat-file', '-e'], values: [sha], env, okExitCodes: [1, 128] })).exitCode === 0;",
        "const cleaned = spawnSync('git', ['cat-file', '-e', sha], { env: withoutRepositoryLocation(process.env), stdio: 'ignore' }).status === 0;",
        "writeFileSync(process.argv[2], JSON.stringify({",
        "  quarantine: typeof process.env.GIT_QUARANTINE_PATH === 'string',",
        "  hookEnvironment: await see(hookReadEnvironment(process.env)),",
        "  isolated: await see({}),",
        "  cleaned,",
        "  inherited: spawnSync('git', ['cat-file', '-e', sha], { stdio: 'ignore' }).status === 0,",
        "}));",
      ].join("\n"),
    );
    writeHook(hosted, "pre-receive", `#!/bin/sh\nexec '${process.execPath}' '${probe}' '${out}'\n`);
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual({
      quarantine: true,
      hookEnvironment: true,
      isolated: false,
      cleaned: false,
      inherited: true,
    });
  });

  it("pre-receive writes nothing: a push its hook then refuses leaves the index and the refs as they were", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    const before = recordedCommit(hosted);
    writeHook(hosted, "pre-receive", `#!/bin/sh\n${loreLine(hosted, "pre-receive")}\nexit 1\n`);
    await hosted.work.commit({ [`${K}/b.md`]: entry(ID_B, "Roll back.", ["sumary: x"]) });
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(1);
    // The parse ran (its report came back) and wrote nothing.
    expect(result.remote).toEqual([
      `${K}/b.md:3:1: key “sumary” is not known, the nearest known is “summary” (sumary) [unknown_key]`,
    ]);
    expect(recordedCommit(hosted)).toBe(before);
    expect([...storedFiles(hosted).keys()]).toEqual([`${K}/a.md`]);
    const ref = spawnSync("git", ["rev-parse", "refs/heads/main"], {
      cwd: hosted.bare,
      encoding: "utf8",
    });
    expect(ref.stdout.trim()).toBe(before);
  });
});

describe("branch protection", () => {
  it("refuses a user the rule does not list, with the message; lets a listed user (and a listed group's member) push; refuses a force push", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    const store = await openServerStore(hosted.data);
    try {
      const now = Date.now();
      const anna = await store.addUser({ name: "anna", siteAdmin: false, createdAt: now });
      await store.addUser({ name: "bob", siteAdmin: false, createdAt: now });
      const carl = await store.addUser({ name: "carl", siteAdmin: false, createdAt: now });
      const team = await store.addGroup({ name: "release", createdAt: now });
      await store.addMember(team.id, carl.id);
      const repo = await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: now,
      });
      await store.protectBranch({
        repoId: repo.id,
        pattern: "main",
        pushUserIds: [anna.id],
        pushGroupIds: [team.id],
        allowForcePush: false,
      });
    } finally {
      await store.close();
    }
    const bob = await hosted.push(["main"], { LORE_PUSHER: "bob" });
    expect(bob.exitCode).toBe(1);
    expect(bob.remote).toEqual([
      "lore: main is protected: rule “main” lets only its listed users and groups push, and bob is not one of them [branch_protected]",
    ]);
    expect(bob.stderr).toContain("[remote rejected] main -> main (pre-receive hook declined)");
    expect(recordedCommit(hosted)).toBeUndefined();

    const anna = await hosted.push(["main"], { LORE_PUSHER: "anna" });
    expect(anna.exitCode).toBe(0);
    expect(anna.remote).toEqual([]);
    expect(recordedCommit(hosted)).toBe((await hosted.work.git(["rev-parse", "HEAD"])).trim());

    await hosted.work.commit({ [`${K}/b.md`]: entry(ID_B, "Roll back.") });
    const carl = await hosted.push(["main"], { LORE_PUSHER: "carl" });
    expect(carl.exitCode).toBe(0);

    await hosted.work.git(["reset", "-q", "--hard", "HEAD~1"]);
    await hosted.work.commit({ [`${K}/c.md`]: entry(ID_C, "Cache.") });
    const force = await hosted.push(["--force", "main"], { LORE_PUSHER: "anna" });
    expect(force.exitCode).toBe(1);
    expect(force.remote).toEqual([
      "lore: main is protected: rule “main” refuses force pushes (the old commit is not an ancestor of the new one) [branch_protected]",
    ]);
    const unprotected = await hosted.push(["main:feature"], { LORE_PUSHER: "bob" });
    expect(unprotected.exitCode).toBe(0);
  });
});
