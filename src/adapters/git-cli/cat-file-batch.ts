import type { ChildProcess } from "node:child_process";
import { LoreError } from "../../core/errors/lore-error.js";
import { DEFAULT_GIT_TIMEOUT_MS, firstLine, killGit, spawnGit } from "./run-git.js";

/** One object read through `git cat-file --batch`. */
export interface CatFileObject {
  /** The object name git echoed (40 or 64 hex). */
  sha: string;
  /** `blob`, `tree`, `commit` or `tag`. */
  type: string;
  /** The object's bytes (length = the size git announced). */
  bytes: Buffer;
}

/** Options of {@link CatFileBatch.start}. */
export interface CatFileBatchOptions {
  /** `HOME` of the child (see `runGit`). Default: the shared empty temp folder. */
  home?: string;
  /**
   * Extra environment of the child (see `runGit`'s `env`), e.g. the quarantine variables a
   * `pre-receive` hook reads its own repository with. Default: none.
   */
  env?: Readonly<Record<string, string>>;
  /**
   * Longest wait for the next byte of output while requests are pending, ms; past it git is
   * killed and pending reads fail with `git_failed`. Default: 30 000.
   */
  idleTimeoutMs?: number;
  /** Requests kept in flight by {@link CatFileBatch.readMany}. Default: 256. */
  window?: number;
  /**
   * When true, the git child does not keep Node's event loop alive while no read is
   * pending (a long-lived reader in a CLI run must not delay its exit). Default: false.
   */
  unrefWhenIdle?: boolean;
}

/** One file read by {@link CatFileBatch.readPath}. */
export interface CatFilePathObject {
  /** The object's name (40 or 64 hex). */
  sha: string;
  /** `blob`, `tree`, `commit` or `tag`. */
  type: string;
  /** The object's size in bytes, as git announced it. */
  size: number;
  /** The bytes; `null` when `size` is over the `maxBytes` asked (they were skipped, not held). */
  bytes: Buffer | null;
}

interface Pending {
  /** The name written: an object name, or `<rev>:<path>` (then `byPath`). */
  sha: string;
  /** True for a `<rev>:<path>` request: git answers with the resolved object name. */
  byPath?: boolean;
  /** Bytes past which the body is skipped instead of held (`readPath`). */
  maxBytes?: number;
  resolve: (object: CatFilePathObject | null) => void;
  reject: (error: LoreError) => void;
}

interface Body {
  sha: string;
  type: string;
  /** `null` while skipping a body over `maxBytes`. */
  bytes: Buffer | null;
  size: number;
  filled: number;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\S+) (\d+)$/;

const OBJECT_NAME = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const LF = 0x0a;
const MAX_HEADER_BYTES = 4096;

/**
 * One long-lived `git cat-file --batch` per repository (the index: no process per
 * file). Requests are pipelined: `<sha>\n` is written for each, and responses
 * (`<sha> <type> <size>\n<bytes>\n`, or `<sha> missing\n`) are parsed in order from the
 * output stream by a buffer state machine that accepts responses split across chunks or
 * packed several to a chunk, of any size.
 *
 * If git dies, or says nothing for `idleTimeoutMs` while requests wait, every pending and
 * later read fails with `git_failed` (never hangs).
 */
export class CatFileBatch {
  private readonly child: ChildProcess;
  private readonly queue: Pending[] = [];
  private readonly idleTimeoutMs: number;
  private readonly window: number;
  private header: Buffer[] = [];
  private headerBytes = 0;
  private body: Body | null = null;
  private stderr = "";
  private failure: LoreError | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastActivity = 0;
  private readonly exited: Promise<void>;
  private closing = false;
  private readonly unrefWhenIdle: boolean;

  private constructor(child: ChildProcess, options: CatFileBatchOptions) {
    this.child = child;
    this.unrefWhenIdle = options.unrefWhenIdle === true;
    if (this.unrefWhenIdle) {
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr])
        (stream as unknown as { unref?: () => void } | null)?.unref?.();
    }
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    this.window = Math.max(1, options.window ?? 256);
    child.stdout?.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr?.on("data", (chunk: Buffer) => {
      if (this.stderr.length < 64 * 1024) this.stderr += chunk.toString("utf8");
    });
    child.stdin?.on("error", () => {
      // EPIPE after git died: reported through the close handler below.
    });
    let spawnError: Error | undefined;
    child.on("error", (error) => {
      spawnError = error;
    });
    this.exited = new Promise((resolve) => {
      child.on("close", (code, signal) => {
        this.clearTimer();
        const reason = spawnError
          ? `cannot run git: ${spawnError.message}`
          : `git cat-file exited (${signal ?? `code ${code}`})${this.stderr ? `: ${firstLine(this.stderr)}` : ""}`;
        this.fail(
          new LoreError(
            "git_failed",
            { reason },
            { data: { stderr: this.stderr, exitCode: code ?? -1 }, cause: spawnError },
          ),
        );
        resolve();
      });
    });
  }

  /**
   * Starts `git cat-file --batch` in a repository.
   *
   * @param cwd - the repository folder (work tree or bare).
   * @param options - see {@link CatFileBatchOptions}.
   */
  static start(cwd: string, options: CatFileBatchOptions = {}): CatFileBatch {
    const child = spawnGit({
      cwd,
      args: ["cat-file", "--batch"],
      ...(options.home === undefined ? {} : { home: options.home }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    return new CatFileBatch(child, options);
  }

  /** True once git has died, stalled or been closed: every read now fails. */
  get failed(): boolean {
    return this.failure !== null || this.closing;
  }

  /** The process id of the git child (for diagnostics and tests). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Reads one object.
   *
   * @param sha - the object name, 40 or 64 hex digits (lower case).
   * @returns the object, or `null` when git says it is missing.
   * @throws LoreError `invalid_input` for a malformed name; `git_failed` when git dies or
   *   stalls, or after {@link close}.
   */
  read(sha: string): Promise<CatFileObject | null> {
    if (!OBJECT_NAME.test(sha)) {
      return Promise.reject(
        new LoreError("invalid_input", { reason: `not an object name: ${sha}` }),
      );
    }
    return new Promise<CatFilePathObject | null>((resolve, reject) => {
      this.enqueue({ sha, resolve, reject });
    }).then((object): CatFileObject | null =>
      object === null
        ? null
        : { sha: object.sha, type: object.type, bytes: object.bytes ?? Buffer.alloc(0) },
    );
  }

  /**
   * Reads the object `<rev>:<path>` (a file at a commit), resolved by git at the time of
   * the request (a branch moved by another writer is seen at the next read).
   *
   * @param rev - a branch, tag or commit (no `:`, whitespace or line break: the caller checks).
   * @param path - the file's path in the repository (no line break).
   * @param options - `maxBytes`: an object larger than this is answered with `bytes: null`
   *   and its size, its bytes skipped, never held in memory. Default: no limit.
   * @returns the object, or `null` when the revision or path does not exist.
   * @throws LoreError `invalid_input` for a name with a line break; `git_failed` when git
   *   dies or stalls, or after {@link close}.
   */
  readPath(
    rev: string,
    path: string,
    options: { maxBytes?: number } = {},
  ): Promise<CatFilePathObject | null> {
    const name = `${rev}:${path}`;
    if (/[\n\r\0]/.test(name)) {
      return Promise.reject(
        new LoreError("invalid_input", { reason: "a revision or path holds a line break" }),
      );
    }
    return new Promise((resolve, reject) => {
      this.enqueue({
        sha: name,
        byPath: true,
        ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
        resolve,
        reject,
      });
    });
  }

  private enqueue(pending: Pending): void {
    if (this.failure !== null) {
      pending.reject(this.failure);
      return;
    }
    if (this.closing) {
      pending.reject(new LoreError("git_failed", { reason: "cat-file batch is closed" }));
      return;
    }
    if (this.queue.length === 0 && this.unrefWhenIdle)
      (this.child.stdout as unknown as { ref?: () => void } | null)?.ref?.();
    this.queue.push(pending);
    this.armTimer();
    this.child.stdin?.write(`${pending.sha}\n`);
  }

  /**
   * Reads many objects in the order given, keeping up to `window` requests in flight and
   * waiting for stdin to drain when its buffer is full; at most `window` answers are held
   * in memory before the consumer takes them.
   *
   * @param shas - object names (40 or 64 hex).
   * @returns an async iterable of objects in request order.
   * @throws LoreError `git_failed` when an object is missing or git dies; `invalid_input`
   *   for a malformed name.
   */
  async *readMany(shas: Iterable<string>): AsyncGenerator<CatFileObject> {
    const inFlight: Promise<CatFileObject | null>[] = [];
    const names: string[] = [];
    const iterator = shas[Symbol.iterator]();
    let done = false;
    try {
      for (;;) {
        // Refill in bursts (one write for many names) once half the window has been taken.
        if (!done && inFlight.length <= this.window / 2) {
          const stdin = this.child.stdin;
          stdin?.cork();
          while (inFlight.length < this.window) {
            const next = iterator.next();
            if (next.done) {
              done = true;
              break;
            }
            const promise = this.read(next.value);
            promise.catch(() => {}); // observed when awaited below; avoids unhandled rejections
            inFlight.push(promise);
            names.push(next.value);
          }
          stdin?.uncork();
          if (stdin?.writableNeedDrain) await this.drain();
        }
        const head = inFlight.shift();
        const name = names.shift();
        if (head === undefined) return;
        const object = await head;
        if (object === null) {
          throw new LoreError("git_failed", { reason: `object ${name} is missing` });
        }
        yield object;
      }
    } finally {
      // A consumer that stops early leaves answers in flight; they are read and dropped.
      await Promise.allSettled(inFlight);
    }
  }

  /**
   * Ends stdin and waits for git to exit (killing it past `idleTimeoutMs`). Pending reads
   * are answered first. Idempotent.
   */
  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = true;
      this.child.stdin?.end();
    }
    const timer = setTimeout(() => killGit(this.child), this.idleTimeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills git at once; pending reads fail with `git_failed`. */
  kill(): void {
    killGit(this.child);
  }

  private drain(): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.child.stdin;
      if (stdin === null || !stdin.writableNeedDrain || this.failure !== null) {
        resolve();
        return;
      }
      const done = () => {
        stdin.off("drain", done);
        this.child.off("close", done);
        resolve();
      };
      stdin.on("drain", done);
      this.child.on("close", done);
    });
  }

  private onData(chunk: Buffer): void {
    if (this.failure !== null) return;
    this.armTimer();
    let offset = 0;
    while (offset < chunk.length) {
      const body = this.body;
      if (body === null) {
        const newline = chunk.indexOf(LF, offset);
        if (newline === -1) {
          this.header.push(chunk.subarray(offset));
          this.headerBytes += chunk.length - offset;
          if (this.headerBytes > MAX_HEADER_BYTES) this.protocolError("header line too long");
          return;
        }
        this.header.push(chunk.subarray(offset, newline));
        const line = Buffer.concat(this.header).toString("latin1");
        this.header = [];
        this.headerBytes = 0;
        offset = newline + 1;
        if (!this.onHeader(line)) return;
      } else if (body.filled < body.size) {
        const take = Math.min(body.size - body.filled, chunk.length - offset);
        if (body.bytes !== null) chunk.copy(body.bytes, body.filled, offset, offset + take);
        body.filled += take;
        offset += take;
      } else {
        if (chunk[offset] !== LF) {
          this.protocolError("object not followed by a line feed");
          return;
        }
        offset += 1;
        this.body = null;
        this.settle({ sha: body.sha, type: body.type, size: body.size, bytes: body.bytes });
      }
    }
  }

  /** Handles one header line; false after a protocol error. */
  private onHeader(line: string): boolean {
    const head = this.queue[0];
    if (head === undefined) {
      this.protocolError(`unexpected answer “${line.slice(0, 100)}”`);
      return false;
    }
    // The header was decoded as latin1 (one char per byte); so is the name it echoes.
    const echoed =
      head.byPath === true ? Buffer.from(head.sha, "utf8").toString("latin1") : head.sha;
    // A path naming a submodule resolves to a commit this repository lacks: `<sha> missing`.
    const gitlink = head.byPath === true && /^(?:[0-9a-f]{40}|[0-9a-f]{64}) missing$/.test(line);
    if (gitlink || line === `${echoed} missing` || line === `${echoed} ambiguous`) {
      this.settle(null);
      return true;
    }
    const fields = HEADER.exec(line);
    // A request by object name is echoed back; one by `<rev>:<path>` gets the resolved name.
    if (fields === null || (head.byPath !== true && fields[1] !== head.sha)) {
      this.protocolError(`unexpected answer “${line.slice(0, 100)}”`);
      return false;
    }
    const size = Number(fields[3]);
    if (!Number.isSafeInteger(size) || size < 0) {
      this.protocolError(`malformed header “${line.slice(0, 100)}”`);
      return false;
    }
    const skip = head.maxBytes !== undefined && size > head.maxBytes;
    this.body = {
      sha: fields[1] ?? "",
      type: fields[2] ?? "",
      bytes: skip ? null : Buffer.allocUnsafe(size),
      size,
      filled: 0,
    };
    return true;
  }

  private settle(object: CatFilePathObject | null): void {
    const head = this.queue.shift();
    if (this.queue.length === 0) {
      this.clearTimer();
      if (this.unrefWhenIdle)
        (this.child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
    }
    head?.resolve(object);
  }

  private protocolError(reason: string): void {
    this.fail(new LoreError("git_failed", { reason: `cat-file: ${reason}` }));
    killGit(this.child);
  }

  private fail(error: LoreError): void {
    if (this.failure === null) this.failure = error;
    this.clearTimer();
    for (const pending of this.queue.splice(0)) pending.reject(this.failure);
  }

  /** Keeps one idle timer while requests wait; activity only moves a timestamp. */
  private armTimer(): void {
    this.lastActivity = performance.now();
    if (this.timer !== null || this.queue.length === 0) return;
    const check = () => {
      this.timer = null;
      if (this.queue.length === 0 || this.failure !== null) return;
      const idle = performance.now() - this.lastActivity;
      if (idle < this.idleTimeoutMs) {
        this.timer = setTimeout(check, this.idleTimeoutMs - idle);
        return;
      }
      this.fail(
        new LoreError("git_failed", {
          reason: `cat-file gave no answer for ${this.idleTimeoutMs} ms`,
        }),
      );
      killGit(this.child);
    };
    this.timer = setTimeout(check, this.idleTimeoutMs);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
