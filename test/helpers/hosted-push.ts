import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runGit } from "../../src/adapters/git-cli/run-git.js";
import { type EntryIndex, openIndex } from "../../src/index/entry-index.js";
import { makeRepo, type TestRepo } from "./make-repo.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The built CLI the hooks run (test/global-setup.ts builds it). */
export const CLI = join(ROOT, "dist", "cli", "main.js");

/** What a `git push` gave back: the `remote:` lines (git's padding removed) and the rest. */
export interface PushResult {
  exitCode: number;
  /** The hook's lines, as the pusher sees them after `remote: `. */
  remote: string[];
  stderr: string;
}

/** A hosted repository in a temp data folder, Lore's hooks installed, and a clone to push from. */
export interface HostedPush {
  /** The temp folder holding everything. */
  root: string;
  /** The server's data folder. */
  data: string;
  /** The index file the hooks write. */
  db: string;
  /** `<data>/repos/acme/app.git`. */
  bare: string;
  /** The work repository (a clone-like repository with `origin` = the bare one). */
  work: TestRepo;
  /** Runs `git push origin <args>` with the real git client (file protocol: hooks run). */
  push(args: readonly string[], env?: Record<string, string>): Promise<PushResult>;
  /** Opens the index file (close it after). */
  index(): EntryIndex;
  /** Runs `node dist/cli/main.js <args>` with the test's environment. */
  cli(args: readonly string[]): { status: number | null; stdout: string; stderr: string };
  cleanup(): Promise<void>;
}

/**
 * Makes `<tmp>/data/repos/acme/app.git` (bare, default branch `main`), installs Lore's
 * hooks with `lore hook install` and a work repository holding `files` in a first commit
 * (not pushed yet).
 */
export async function makeHostedPush(
  files: Record<string, string | Uint8Array> = {},
): Promise<HostedPush> {
  const root = await mkdtemp(join(tmpdir(), "lore-push-"));
  const data = join(root, "data");
  const db = join(root, "index.db");
  const bare = join(data, "repos", "acme", "app.git");
  await mkdir(dirname(bare), { recursive: true });
  await runGit({ cwd: root, args: ["init", "-q", "--bare", "-b", "main"], paths: [bare] });
  const env = {
    ...process.env,
    LORE_DB: db,
    XDG_CONFIG_HOME: root,
    LORE_CONFIG: "",
    LANG: "C",
    LC_ALL: "C",
    LORE_LANG: "en",
  };
  const cli = (args: readonly string[]) => {
    const result = spawnSync(process.execPath, [CLI, ...args], {
      cwd: root,
      env,
      encoding: "utf8",
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const installed = cli(["hook", "install", bare, "--data", data]);
  if (installed.status !== 0) throw new Error(`hook install failed: ${installed.stderr}`);
  const work = await makeRepo(files);
  await work.git(["remote", "add", "origin", bare]);
  return {
    root,
    data,
    db,
    bare,
    work,
    async push(args, extra = {}) {
      const out = await runGit({
        cwd: work.dir,
        args: ["push", "origin", ...args],
        env: extra,
        okExitCodes: [1],
        timeoutMs: 120_000,
      });
      return { exitCode: out.exitCode, remote: remoteLines(out.stderr), stderr: out.stderr };
    },
    index: () => openIndex(db),
    cli,
    async cleanup() {
      await work.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The `remote:` lines of git's stderr, without the prefix and git's trailing padding. */
export function remoteLines(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.startsWith("remote: "))
    .map((line) => {
      let text = line.slice("remote: ".length);
      // git pads each sideband line: 8 spaces, or ESC [K on a terminal.
      for (const pad of [`${String.fromCharCode(27)}[K`, " "]) {
        while (text.endsWith(pad)) text = text.slice(0, -pad.length);
      }
      return text;
    });
}

/** The stored files of the repository `acme/app`: path → blob sha. */
export function storedFiles(hosted: HostedPush): Map<string, string> {
  const index = hosted.index();
  try {
    return index.listFiles("acme/app");
  } finally {
    index.close();
  }
}

/** The commit the index records for `acme/app`. */
export function recordedCommit(hosted: HostedPush): string | null | undefined {
  const index = hosted.index();
  try {
    return index.repository("acme/app")?.commit;
  } finally {
    index.close();
  }
}
