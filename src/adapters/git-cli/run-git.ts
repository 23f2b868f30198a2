import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";

/** Default time limit of one git child, ms. */
export const DEFAULT_GIT_TIMEOUT_MS = 30_000;

/**
 * How to run one git command. The three argument lists keep user values from ever
 * becoming options (STYLE.md, the git row; Gitea `modules/git/gitcmd/command.go`):
 * `args` are literals this code writes, `values` are user values placed after them (a value
 * starting with `-` is refused), `paths` come after `--`.
 */
export interface RunGitOptions {
  /** Working directory: the repository (work tree top or bare repository folder). */
  cwd: string;
  /** The subcommand and its options, written by Lore code only, e.g. `["ls-tree", "-r"]`. */
  args: readonly string[];
  /** User values (revisions, object names) after `args`; refused when empty, starting with `-`, or holding NUL/LF. Default: none. */
  values?: readonly string[];
  /** Paths after `--`; refused when holding NUL. Default: none (no `--` is added). */
  paths?: readonly string[];
  /** Bytes written to stdin, then stdin is closed. Default: stdin closed at once. */
  input?: Uint8Array | string;
  /** Time limit, ms; past it the child is killed (SIGKILL). Default: 30 000. */
  timeoutMs?: number;
  /** `HOME` (and `XDG_CONFIG_HOME`) of the child. Default: one empty temp folder per process. */
  home?: string;
  /** Extra environment variables (e.g. `GIT_AUTHOR_DATE` in tests). Default: none. */
  env?: Readonly<Record<string, string>>;
  /** Exit codes other than 0 that are answers, not failures (e.g. `[1]`). Default: none. */
  okExitCodes?: readonly number[];
}

/** What a finished git command gave back. */
export interface GitOutput {
  /** Everything git wrote to stdout, raw bytes. */
  stdout: Buffer;
  /** Everything git wrote to stderr, decoded as UTF-8. */
  stderr: string;
  /** The exit code (0, or one of `okExitCodes`). */
  exitCode: number;
}

let sharedHome: string | undefined;

/**
 * The empty folder used as `HOME` of git children when the caller gives none, chosen on
 * first use (never at import time): `<tmp>/lore-git-home-<uid>`, made with mode 0700, used
 * only while it is a real folder owned by this user, closed to others and empty; otherwise
 * a fresh temp folder, removed when the process exits.
 */
export function defaultHome(): string {
  if (sharedHome !== undefined) return sharedHome;
  const uid = process.getuid?.();
  const dir = join(tmpdir(), `lore-git-home-${uid ?? "user"}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch {
    // exists already (checked below) or cannot be made (fallback below)
  }
  const info = lstatSync(dir, { throwIfNoEntry: false });
  const safe =
    info?.isDirectory() === true &&
    (uid === undefined || info.uid === uid) &&
    (info.mode & 0o077) === 0 &&
    readdirSync(dir).length === 0;
  if (safe) {
    sharedHome = dir;
  } else {
    const fresh = mkdtempSync(join(tmpdir(), "lore-git-home-"));
    process.once("exit", () => rmSync(fresh, { recursive: true, force: true }));
    sharedHome = fresh;
  }
  return sharedHome;
}

/**
 * The isolated environment of a git child: only `PATH` (to find git) and `TMPDIR` are
 * inherited; no `GIT_*` variable of the parent leaks in (no `GIT_DIR`, no `GIT_INDEX_FILE`).
 * No system or user config is read, nothing prompts, messages are in the C locale, and
 * pathspecs are literal.
 *
 * @param home - the folder used as `HOME` and `XDG_CONFIG_HOME`.
 * @param extra - additional variables, applied last.
 */
export function gitEnvironment(
  home: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "/bin/false",
    SSH_ASKPASS: "/bin/false",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C",
    LANG: "C",
  };
  for (const name of ["PATH", "TMPDIR", "SYSTEMROOT"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}

/**
 * Checks that a user value cannot be read by git as an option or break a line protocol.
 *
 * @param value - a revision, object name or other user value.
 * @param what - what the value is, for the message (e.g. `revision`).
 * @returns the value unchanged.
 * @throws LoreError `invalid_input` when the value is empty, starts with `-`, or holds NUL or LF.
 */
export function assertGitValue(value: string, what = "value"): string {
  if (value.length === 0) throw new LoreError("invalid_input", { reason: `empty git ${what}` });
  if (value.startsWith("-")) {
    throw new LoreError("invalid_input", {
      reason: `git ${what} “${value}” starts with “-” and would be read as an option`,
    });
  }
  if (/[\0\n]/.test(value)) {
    throw new LoreError("invalid_input", { reason: `git ${what} holds a NUL or line break` });
  }
  return value;
}

/**
 * Builds the argument list of a git command: safety `-c` options, then `args`, checked
 * `values`, and `--` followed by `paths` when there are paths.
 *
 * @throws LoreError `invalid_input` for a refused value or path.
 */
export function buildGitArgs(options: Pick<RunGitOptions, "args" | "values" | "paths">): string[] {
  const argv = ["-c", "core.fsmonitor=false", ...options.args];
  for (const value of options.values ?? []) argv.push(assertGitValue(value));
  if (options.paths !== undefined && options.paths.length > 0) {
    argv.push("--");
    for (const path of options.paths) {
      if (path.includes("\0")) {
        throw new LoreError("invalid_input", { reason: "a path holds a NUL byte" });
      }
      argv.push(path);
    }
  }
  return argv;
}

/**
 * Starts a git child with no shell, the isolated environment and the checked arguments.
 * The caller owns the process (used by the long-lived `cat-file --batch`).
 *
 * @throws LoreError `invalid_input` for a refused value or path.
 */
export function spawnGit(
  options: Pick<RunGitOptions, "cwd" | "args" | "values" | "paths" | "home" | "env">,
): ChildProcess {
  return startGit(buildGitArgs(options), options);
}

function startGit(
  argv: string[],
  options: Pick<RunGitOptions, "cwd" | "home" | "env">,
): ChildProcess {
  return spawn("git", argv, {
    cwd: options.cwd,
    env: gitEnvironment(options.home ?? defaultHome(), options.env),
    shell: false,
    // Its own process group, so a timeout kills the helpers git starts too (see killGit).
    detached: process.platform !== "win32",
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
}

/**
 * Kills a git child and the processes it started (its process group), with SIGKILL.
 *
 * @param child - a process from {@link spawnGit}.
 */
export function killGit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (child.pid !== undefined && process.platform !== "win32")
      process.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
}

/** First non-empty line of git's stderr, for a short reason. */
export function firstLine(stderr: string): string {
  return (
    stderr
      .split("\n")
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ""
  );
}

/**
 * Runs one git command to its end and collects its output.
 *
 * @param options - see {@link RunGitOptions}.
 * @returns stdout as bytes, stderr as text, the exit code.
 * @throws LoreError `invalid_input` when a value starts with `-` (or holds NUL/LF);
 *   `git_failed` when git cannot start, exits with a code not in `okExitCodes`, or runs past
 *   the timeout (it is killed), or its working folder is missing (said so) — `data` holds
 *   `args`, `exitCode`, `stderr` (for logs: an `internal` refusal's `data` is not shown to
 *   clients, see `core/errors/client-data.ts`); `cause` is kept.
 */
export async function runGit(options: RunGitOptions): Promise<GitOutput> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const argv = buildGitArgs(options);
  const child = startGit(argv, options);
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let spawnError: Error | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGit(child);
    }, timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin?.on("error", () => {
      // EPIPE when git exits before reading its input; the exit code tells the story.
    });
    child.on("error", (error) => {
      spawnError = error;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      const data = { args: argv, exitCode: code ?? -1, signal: signal ?? "", stderr };
      if (spawnError !== undefined) {
        // Node says `spawn git ENOENT` also when the working folder is missing (git is
        // there): say which.
        const folderGone =
          (spawnError as NodeJS.ErrnoException).code === "ENOENT" && !existsSync(options.cwd);
        reject(
          new LoreError(
            "git_failed",
            {
              reason: folderGone
                ? "the repository's folder does not exist (moved or removed)"
                : `cannot run git: ${spawnError.message}`,
            },
            { data, cause: spawnError },
          ),
        );
      } else if (timedOut) {
        reject(
          new LoreError(
            "git_failed",
            { reason: `git ${options.args[0] ?? ""} timed out after ${timeoutMs} ms` },
            { data },
          ),
        );
      } else if (code === 0 || (code !== null && options.okExitCodes?.includes(code))) {
        resolve({ stdout: Buffer.concat(out), stderr, exitCode: code });
      } else {
        const reason = firstLine(stderr) || `exit ${code ?? signal}`;
        reject(
          new LoreError(
            "git_failed",
            { reason: `git ${options.args[0] ?? ""}: ${reason}` },
            { data },
          ),
        );
      }
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
