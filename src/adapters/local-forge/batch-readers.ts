import { CatFileBatch, type CatFilePathObject } from "../git-cli/cat-file-batch.js";

/** Options of {@link BatchReaders}. */
export interface BatchReadersOptions {
  /** Most repositories with a reader open at once; the least recently used is closed. Default: 32. */
  maxOpen?: number;
  /** A reader unused this long is closed, ms. Default: 20 000. */
  idleMs?: number;
  /** Longest wait for git's next byte while a read is pending, ms. Default: 30 000. */
  timeoutMs?: number;
}

interface Reader {
  batch: CatFileBatch;
  timer: NodeJS.Timeout | null;
}

/**
 * One long-lived `git cat-file --batch` per repository folder, for the local forge's reads
 * (a question over 20 projects reads 100 pages: one git process per page made it slow).
 * A reader starts at the first read of a repository, is reused by every later read, and is
 * closed when unused for `idleMs`, when more than `maxOpen` are open (least recently used
 * first), or by {@link close}. A reader whose git died or stalled is replaced at the next
 * read. Readers never keep the process alive while idle.
 */
export class BatchReaders {
  private readonly readers = new Map<string, Reader>();
  private readonly maxOpen: number;
  private readonly idleMs: number;
  private readonly timeoutMs: number | undefined;

  constructor(options: BatchReadersOptions = {}) {
    this.maxOpen = Math.max(1, options.maxOpen ?? 32);
    this.idleMs = options.idleMs ?? 20_000;
    this.timeoutMs = options.timeoutMs;
  }

  /**
   * Reads `<rev>:<path>` in the repository at `dir`.
   *
   * @param dir - the repository folder (bare, or the top of a work tree).
   * @param rev - branch, tag, commit or `HEAD` (checked by the caller).
   * @param path - the file's path (checked by the caller).
   * @param maxBytes - see `CatFileBatch.readPath`.
   * @returns the object, or `null` when missing.
   * @throws LoreError `git_failed`, `invalid_input`.
   */
  async read(
    dir: string,
    rev: string,
    path: string,
    maxBytes?: number,
  ): Promise<CatFilePathObject | null> {
    const reader = this.reader(dir);
    return reader.batch.readPath(rev, path, maxBytes === undefined ? {} : { maxBytes });
  }

  /** Number of readers open (for tests and diagnostics). */
  get open(): number {
    return this.readers.size;
  }

  /** Closes the reader of one repository (e.g. before its folder is removed). */
  async closeOne(dir: string): Promise<void> {
    const reader = this.readers.get(dir);
    if (reader === undefined) return;
    this.readers.delete(dir);
    if (reader.timer !== null) clearTimeout(reader.timer);
    await reader.batch.close();
  }

  /** Closes every reader. Idempotent. */
  async close(): Promise<void> {
    await Promise.all([...this.readers.keys()].map((dir) => this.closeOne(dir)));
  }

  private reader(dir: string): Reader {
    let reader = this.readers.get(dir);
    if (reader?.batch.failed === true) {
      this.readers.delete(dir);
      if (reader.timer !== null) clearTimeout(reader.timer);
      reader = undefined;
    }
    if (reader === undefined) {
      reader = {
        batch: CatFileBatch.start(dir, {
          unrefWhenIdle: true,
          ...(this.timeoutMs === undefined ? {} : { idleTimeoutMs: this.timeoutMs }),
        }),
        timer: null,
      };
      while (this.readers.size >= this.maxOpen) {
        const oldest = this.readers.keys().next().value as string;
        void this.closeOne(oldest);
      }
    } else {
      this.readers.delete(dir); // re-inserted below: the map's order is the use order
    }
    this.readers.set(dir, reader);
    if (reader.timer !== null) clearTimeout(reader.timer);
    const current = reader;
    current.timer = setTimeout(() => {
      if (this.readers.get(dir) === current) void this.closeOne(dir);
    }, this.idleMs);
    current.timer.unref();
    return current;
  }
}
