import type { Readable, Writable } from "node:stream";

/**
 * The git processes that serve fetches and pushes of hosted repositories (seed 004, team
 * server; git over HTTP and SSH): `git http-backend` for one smart-HTTP request, or
 * `git-upload-pack` / `git-receive-pack` on one bare repository for an SSH session. The
 * transports (http/git, ssh) get an implementation as a parameter
 * (`adapters/git-cli/spawn-git-service.ts`), so both share one bound on concurrent git
 * processes.
 */
export interface GitServices {
  /**
   * Starts one git process once a slot is free (waits in a bounded queue).
   *
   * @param spec - what to run.
   * @param signal - aborts the wait (the client went away); an aborted wait throws
   *   LoreError `cancelled`.
   * @throws LoreError `server_busy` when every slot is taken and the queue is full.
   */
  start(spec: GitServiceSpec, signal?: AbortSignal): Promise<GitServiceProcess>;
  /** How many git processes run and wait now. */
  load(): { running: number; queued: number };
}

/**
 * One git process to start. Every one runs with no shell, an isolated environment (no
 * inherited `GIT_*`, `HOME` a folder of Lore's), `LORE_PUSHER` set for the hooks, and a
 * time limit.
 */
export type GitServiceSpec =
  | {
      kind: "http-backend";
      /**
       * The CGI variables of the request (`GIT_PROJECT_ROOT`, `PATH_INFO`, `QUERY_STRING`,
       * `REQUEST_METHOD`, `CONTENT_TYPE`, `REMOTE_USER` …), built by the HTTP edge from
       * checked values only.
       */
      cgi: Readonly<Record<string, string>>;
      /** The user who fetches or pushes (`LORE_PUSHER`). */
      pusher: string;
      /** The pusher's language when the request said one (`LORE_PUSHER_LANG`, for the hooks' report). */
      lang?: "en" | "ru";
    }
  | {
      kind: "git-upload-pack" | "git-receive-pack";
      /** Absolute path of the bare repository. */
      repoDir: string;
      /** The user who fetches or pushes (`LORE_PUSHER`). */
      pusher: string;
      /** `GIT_PROTOCOL` as the client asked (e.g. `version=2`), already checked. */
      protocol?: string;
      /** The pusher's language when the client said one (`LORE_PUSHER_LANG`, for the hooks' report). */
      lang?: "en" | "ru";
    };

/** A running git process: its three pipes, its end, and a way to stop it. */
export interface GitServiceProcess {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
  /**
   * Settles when the process has exited and its pipes are closed: the exit code (null when
   * killed), the signal, and whether the time limit killed it.
   */
  done: Promise<{ code: number | null; signal: string | null; timedOut: boolean }>;
  /** Kills the process and what it started (its process group). Idempotent. */
  kill(): void;
}
