import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import { LoreError } from "../../core/errors/lore-error.js";
import { PUSHER_LANG_ENV } from "../../core/push/pusher-lang.js";
import type { GitServiceProcess, GitServiceSpec, GitServices } from "../../ports/git-service.js";
import { defaultHome, gitEnvironment, killGit } from "./run-git.js";

/** Bounds of the git processes that serve fetches and pushes. */
export interface GitServiceLimits {
  /** Git processes running at once (HTTP requests and SSH sessions together). Default 32. */
  maxProcesses: number;
  /** Requests waiting for a slot; one more is refused with `server_busy`. Default 256. */
  maxQueue: number;
  /** Time limit of one git process, ms; past it the process group is killed. Default 600 000 (10 min). */
  timeoutMs: number;
}

/** The defaults of {@link GitServiceLimits}. */
export const DEFAULT_GIT_SERVICE_LIMITS: GitServiceLimits = {
  maxProcesses: 32,
  maxQueue: 256,
  timeoutMs: 600_000,
};

/** Options of {@link createGitServices}. */
export interface GitServicesOptions extends Partial<GitServiceLimits> {
  /** `HOME` of the git processes. Default: Lore's empty git home ({@link defaultHome}). */
  home?: string;
  /**
   * Extra variables for every process (and so for the hooks it runs), e.g. where the hooks
   * find the server's data folder. Applied before `LORE_PUSHER` and `GIT_PROTOCOL`.
   */
  env?: Readonly<Record<string, string>>;
}

let execPath: string | undefined;

/** The folder of git's own programs (`git --exec-path`), asked once. */
function gitExecPath(home: string): string {
  execPath ??= execFileSync("git", ["--exec-path"], {
    env: gitEnvironment(home),
    encoding: "utf8",
    shell: false,
  }).trim();
  return execPath;
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The git processes of the team server (the {@link GitServices} port): `git http-backend`
 * (found in `git --exec-path`) for a smart-HTTP request, `git upload-pack --strict -- <dir>`
 * or `git receive-pack -- <dir>` for an SSH session. No shell; the environment is
 * {@link gitEnvironment} (only `PATH`/`TMPDIR` inherited, no `GIT_*` of the parent) plus the
 * CGI variables, `LORE_PUSHER` and `GIT_PROTOCOL`; each process in its own process group,
 * killed with it at the time limit. At most `maxProcesses` run at once, `maxQueue` wait;
 * beyond that `start` throws `server_busy`.
 *
 * @param options - limits (see {@link GitServiceLimits}), `home`, extra `env`.
 */
export function createGitServices(options: GitServicesOptions = {}): GitServices {
  const limits: GitServiceLimits = {
    maxProcesses: options.maxProcesses ?? DEFAULT_GIT_SERVICE_LIMITS.maxProcesses,
    maxQueue: options.maxQueue ?? DEFAULT_GIT_SERVICE_LIMITS.maxQueue,
    timeoutMs: options.timeoutMs ?? DEFAULT_GIT_SERVICE_LIMITS.timeoutMs,
  };
  const home = options.home ?? defaultHome();
  let running = 0;
  const queue: Waiter[] = [];

  const release = (): void => {
    running -= 1;
    const next = queue.shift();
    if (next !== undefined) {
      next.signal?.removeEventListener("abort", next.onAbort);
      running += 1;
      next.resolve();
    }
  };

  const acquire = (signal: AbortSignal | undefined): Promise<void> => {
    if (signal?.aborted === true) return Promise.reject(new LoreError("cancelled"));
    if (running < limits.maxProcesses) {
      running += 1;
      return Promise.resolve();
    }
    if (queue.length >= limits.maxQueue) {
      return Promise.reject(
        new LoreError(
          "server_busy",
          { running, queued: queue.length },
          { data: { running, queued: queue.length } },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(new LoreError("cancelled"));
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      queue.push(waiter);
    });
  };

  const spawnSpec = (spec: GitServiceSpec): ChildProcess => {
    const base: Record<string, string> = { ...options.env, LORE_PUSHER: spec.pusher };
    if (spec.lang !== undefined) base[PUSHER_LANG_ENV] = spec.lang;
    const common = { shell: false, detached: process.platform !== "win32", windowsHide: true };
    if (spec.kind === "http-backend") {
      const env = gitEnvironment(home, { ...spec.cgi, ...base });
      return spawn(join(gitExecPath(home), "git-http-backend"), [], { ...common, env });
    }
    const extra: Record<string, string> = { ...base };
    if (spec.protocol !== undefined) extra.GIT_PROTOCOL = spec.protocol;
    const env = gitEnvironment(home, extra);
    const args =
      spec.kind === "git-upload-pack"
        ? ["-c", "core.fsmonitor=false", "upload-pack", "--strict", "--", spec.repoDir]
        : ["-c", "core.fsmonitor=false", "receive-pack", "--", spec.repoDir];
    return spawn("git", args, { ...common, env, cwd: spec.repoDir });
  };

  return {
    load: () => ({ running, queued: queue.length }),
    async start(spec, signal) {
      await acquire(signal);
      let child: ChildProcess;
      try {
        child = spawnSpec(spec);
      } catch (error) {
        release();
        throw new LoreError("git_failed", { reason: `cannot start git: ${String(error)}` });
      }
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killGit(child);
      }, limits.timeoutMs);
      const done = new Promise<{ code: number | null; signal: string | null; timedOut: boolean }>(
        (resolve) => {
          let settled = false;
          const settle = (code: number | null, sig: string | null): void => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            release();
            resolve({ code, signal: sig, timedOut });
          };
          child.on("close", (code, sig) => settle(code, sig));
          child.on("error", () => settle(null, null));
        },
      );
      // EPIPE when git exits before it read all input: the exit code tells the story.
      child.stdin?.on("error", () => {});
      const { stdin, stdout, stderr } = child;
      if (stdin === null || stdout === null || stderr === null) {
        killGit(child);
        throw new LoreError("git_failed", { reason: "git started without pipes" });
      }
      const handle: GitServiceProcess = { stdin, stdout, stderr, done, kill: () => killGit(child) };
      return handle;
    },
  };
}
