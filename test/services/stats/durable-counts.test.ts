/**
 * Durable counts on a real SQLite file (seed 004: an answer of 200 to `shown` is stored;
 * «Чтение счётчиков всегда точное»): a child process killed with SIGKILL right after
 * `recordShown` returned keeps the count; a count waiting for another connection's write
 * lock (a heal in the same process) waits without blocking the thread and is stored once
 * the lock is released.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openIndex } from "../../../src/index/entry-index.js";
import { sqliteIndexStore } from "../../../src/index/index-store/sqlite-index-store.js";

const DIST = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "dist");
const url = (path: string) => pathToFileURL(join(DIST, path)).href;
const ID = "0190f5a4-3b2c-7d10-8a11-000000000001";

/** Counts `n` showings one call each, says so after the last returned, then waits to be killed. */
const COUNTER = `
import { openIndex } from ${JSON.stringify(url("index/entry-index.js"))};
const [file, n] = process.argv.slice(1);
const index = openIndex(file);
for (let i = 0; i < Number(n); i += 1) index.recordShown("ann", [{ repo: "acme/app", id: ${JSON.stringify(ID)} }], 1000 + i);
process.stdout.write("recorded\\n");
setInterval(() => {}, 1000);
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-durable-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("recordShown", () => {
  it("survives a kill -9 right after it returned", async () => {
    const file = join(dir, "index.db");
    openIndex(file).close();
    const child = spawn(process.execPath, ["--input-type=module", "-e", COUNTER, file, "37"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    const killed = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      child.on("error", reject);
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("recorded")) child.kill("SIGKILL");
      });
      child.on("exit", (code, signal) => {
        if (signal === null) reject(new Error(`the child exited ${code}: ${err}`));
        else resolve(signal);
      });
    });
    expect(killed).toBe("SIGKILL");
    const index = openIndex(file);
    try {
      expect(index.counter("ann", "acme/app", ID)).toMatchObject({ shown: 37, lastShownAt: 1036 });
    } finally {
      index.close();
    }
  });
});

describe("durable counts of the index store on SQLite (CounterStore.recordShown)", () => {
  it("waits for another connection's write lock without blocking the thread, then stores the count", async () => {
    const file = join(dir, "index.db");
    const reader = openIndex(file);
    const writer = openIndex(file);
    try {
      expect(writer.tryBeginWrite()).toBe(true);
      let timerRan = false;
      const counted = sqliteIndexStore(reader).counters.recordShown(
        "ann",
        [ID].map((id: string) => ({ repo: "acme/app", id })),
        5,
      );
      // The thread is free: a timer runs while the count waits, and releases the lock.
      setTimeout(() => {
        timerRan = true;
        writer.commitWrite();
      }, 200);
      await counted;
      expect(timerRan).toBe(true);
      expect(reader.counter("ann", "acme/app", ID)).toMatchObject({ shown: 1 });
      // Past its wait, a count held off by the lock is refused and stores nothing.
      expect(writer.tryBeginWrite()).toBe(true);
      await expect(
        sqliteIndexStore(reader, { waitMs: 50 }).counters.recordShown(
          "bob",
          [ID].map((id: string) => ({ repo: "acme/app", id })),
          6,
        ),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^SQLITE_BUSY/),
      });
      writer.commitWrite();
      expect(reader.counter("bob", "acme/app", ID)).toBeUndefined();
    } finally {
      reader.close();
      writer.close();
    }
  });
});
