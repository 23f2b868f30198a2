/**
 * The delivery lock across processes on SQLite (`file-locks.ts`): two holders of one name
 * run one after the other, other names do not wait, a failed holder lets go, and a holder
 * killed with SIGKILL in another process frees the lock without any clean-up.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deferred } from "../../../test/helpers/deferred.js";
import { FileLocks, lockFile } from "./file-locks.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-file-locks-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("FileLocks", () => {
  it("runs two holders of one name one after the other; another name does not wait", async () => {
    const events: string[] = [];
    const a = new FileLocks(dir, 5);
    const b = new FileLocks(dir, 5);
    const gate = deferred();
    const first = a.run("delivery acme/app feat", async () => {
      events.push("first in");
      await gate.promise;
      events.push("first out");
    });
    while (!events.includes("first in")) await new Promise((tick) => setImmediate(tick));
    const second = b.run("delivery acme/app feat", async () => {
      events.push("second in");
    });
    await new FileLocks(dir, 5).run("delivery acme/app other", async () => {
      events.push("other name");
    });
    gate.resolve();
    await Promise.all([first, second]);
    expect(events).toEqual(["first in", "other name", "first out", "second in"]);
  });

  it("lets go when the work fails", async () => {
    const locks = new FileLocks(dir, 5);
    await expect(
      locks.run("x", async () => {
        throw new Error("delivery failed");
      }),
    ).rejects.toThrow("delivery failed");
    await expect(new FileLocks(dir, 5).run("x", async () => "next")).resolves.toBe("next");
  });

  it("is freed by the system when the holding process is killed (SIGKILL)", async () => {
    const file = lockFile(dir, "delivery acme/app main");
    const holder = spawn(
      process.execPath,
      [
        "-e",
        "const D=require('better-sqlite3');const db=new D(process.argv[1]);db.exec('BEGIN EXCLUSIVE');console.log('held');setInterval(()=>{},1000);",
        file,
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise<void>((done) => holder.on("exit", () => done()));
    try {
      await new Promise<void>((done, fail) => {
        holder.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString("utf8").includes("held")) done();
        });
        holder.on("error", fail);
      });
      let entered = false;
      const waiting = new FileLocks(dir, 5).run("delivery acme/app main", async () => {
        entered = true;
      });
      await new Promise((pause) => setTimeout(pause, 200));
      expect(entered).toBe(false);
      holder.kill("SIGKILL");
      await exited;
      await waiting;
      expect(entered).toBe(true);
    } finally {
      holder.kill("SIGKILL");
    }
  });
});
