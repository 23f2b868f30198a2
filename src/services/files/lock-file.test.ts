import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LoreError } from "../../core/errors/lore-error.js";
import { holdLockFile, lockFilePath } from "./lock-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-lock-file-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const busy = () => new LoreError("file_busy", { path: "x", seconds: 0 });
const options = { waitMs: 2_000, staleMs: 60_000, onTimeout: busy };

describe("holdLockFile", () => {
  it("lets one holder at a time in, and removes the lock when done", async () => {
    const lock = lockFilePath(dir, "/some/real/path.md");
    expect(lock.startsWith(dir)).toBe(true);
    const order: string[] = [];
    const work = (name: string) =>
      holdLockFile(lock, options, async () => {
        order.push(`${name}+`);
        await new Promise((done) => setTimeout(done, 30));
        order.push(`${name}-`);
      });
    await Promise.all([work("a"), work("b"), work("c")]);
    // Never two inside at once: every enter is followed by its own leave.
    for (let i = 0; i < order.length; i += 2) {
      expect(order[i]?.slice(0, 1)).toBe(order[i + 1]?.slice(0, 1));
    }
    expect(existsSync(lock)).toBe(false);
  });

  it("takes over a lock whose writer's pid is gone", async () => {
    const lock = lockFilePath(dir, "k");
    writeFileSync(lock, "999999999");
    await expect(holdLockFile(lock, options, async () => "done")).resolves.toBe("done");
  });

  it("refuses with onTimeout while a live writer holds it", async () => {
    const lock = lockFilePath(dir, "k");
    writeFileSync(lock, String(process.pid));
    await expect(
      holdLockFile(lock, { ...options, waitMs: 50 }, async () => "never"),
    ).rejects.toMatchObject({ code: "file_busy" });
    expect(existsSync(lock)).toBe(true);
  });
});
