import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ServerStore } from "../ports/server-store.js";
import { hashToken } from "../services/access/tokens.js";
import { FIRST_START_LOCK_FILE, firstStart, OWNER_TOKEN_FILE } from "./first-start.js";
import { openServerStore } from "./open-server.js";

describe("firstStart", () => {
  let dir: string;
  let stores: ServerStore[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lore-first-start-"));
    stores = [];
  });
  afterEach(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<ServerStore> {
    const store = await openServerStore(dir);
    stores.push(store);
    return store;
  }

  it("creates the owner once when several servers start at once on a fresh data folder", async () => {
    const opened = await Promise.all([open(), open(), open(), open()]);
    // Each saw no user before any created one: the race the lock closes.
    expect(await Promise.all(opened.map((s) => s.countUsers()))).toEqual([0, 0, 0, 0]);
    const made = await Promise.all(opened.map((s) => firstStart(s, dir, "Anna Smith")));
    expect(made.filter((m) => m !== undefined)).toEqual([join(dir, OWNER_TOKEN_FILE)]);
    const store = opened[0] as ServerStore;
    const users = await store.listUsers();
    expect(users.map((u) => [u.name, u.siteAdmin])).toEqual([["anna-smith", true]]);
    const tokens = await store.listTokens();
    expect(tokens).toHaveLength(1);
    const secret = readFileSync(join(dir, OWNER_TOKEN_FILE), "utf8").trim();
    expect(tokens[0]?.hash).toBe(hashToken(secret));
    expect(statSync(join(dir, OWNER_TOKEN_FILE)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, FIRST_START_LOCK_FILE))).toBe(false);
  });

  it("creates nothing when a user exists", async () => {
    const store = await open();
    await store.addUser({ name: "boris", siteAdmin: true, createdAt: 1 });
    expect(await firstStart(store, dir, "anna")).toBeUndefined();
    expect(await store.countUsers()).toBe(1);
    expect(existsSync(join(dir, OWNER_TOKEN_FILE))).toBe(false);
  });

  it("takes over the lock of a process that is gone", async () => {
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    });
    writeFileSync(join(dir, FIRST_START_LOCK_FILE), `${gone.stdout}\n`);
    const store = await open();
    expect(await firstStart(store, dir, "anna")).toBe(join(dir, OWNER_TOKEN_FILE));
    expect(existsSync(join(dir, FIRST_START_LOCK_FILE))).toBe(false);
  });

  it("waits for a live holder of the lock, then finds the owner it made", async () => {
    const store = await open();
    writeFileSync(join(dir, FIRST_START_LOCK_FILE), `${process.pid}\n`);
    const waiting = firstStart(store, dir, "anna");
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The holder makes the owner meanwhile and lets go.
    await store.addUser({ name: "holder", siteAdmin: true, createdAt: 1 });
    rmSync(join(dir, FIRST_START_LOCK_FILE));
    expect(await waiting).toBeUndefined();
    expect((await store.listUsers()).map((u) => u.name)).toEqual(["holder"]);
  });
});
