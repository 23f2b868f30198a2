import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openServerStore } from "./open-server.js";

describe("openServerStore", () => {
  const dir = mkdtempSync(join(tmpdir(), "lore-open-server-"));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("creates the data folder 0700 and server.db with its WAL 0600, closed to others", async () => {
    const data = join(dir, "a", "data");
    const store = await openServerStore(data);
    await store.addUser({ name: "anna", siteAdmin: false, createdAt: 1 });
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, "server.db")).mode & 0o777).toBe(0o600);
    expect(statSync(join(data, "server.db-wal")).mode & 0o077).toBe(0);
    await store.close();
    const again = await openServerStore(data);
    expect(await again.countUsers()).toBe(1);
    await again.close();
  });
});
