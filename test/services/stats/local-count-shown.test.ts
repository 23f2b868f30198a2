/**
 * `count_shown` on the local Lore (`lore mcp`, `lore recall`): a recall counts its hits as
 * shown to the configured user (queued, then written), and `count_shown: false` — a client
 * that marks shown itself — counts nothing; `open` still counts a read.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { composeLore, type Lore } from "../../../src/main/compose.js";
import type { LoreSettings } from "../../../src/main/load-config.js";
import { reportMe } from "../../../src/services/stats/usage-reports.js";
import { makeRepo, type TestRepo } from "../../helpers/make-repo.js";

const ID = "0190f5a4-3b2c-7d10-8a11-000000000001";
const ENTRY = `---\nid: ${ID}\ncontract:\n  - mechanism: on_query\n    params:\n      words: ["deploy"]\n---\n\nRestart the worker after a deploy.\n`;

let work: string;
let repo: TestRepo;
let lore: Lore;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), "lore-count-shown-"));
  repo = await makeRepo({ ".gitriver/knowledge/deploy.md": ENTRY });
  const settings: LoreSettings = {
    configPath: null,
    user: "ann",
    lang: "en",
    database: join(work, "index.db"),
    repos: [],
    server: { host: "127.0.0.1", port: 0, data: join(work, "server"), sshPort: 0 },
  };
  lore = await composeLore(settings);
  await lore.index(repo.dir);
});
afterEach(async () => {
  await lore.close();
  await repo.cleanup();
  await rm(work, { recursive: true, force: true });
});

describe("count_shown on the local recall", () => {
  it("counts by default, not with count_shown: false", async () => {
    const name = lore.entryIndex.repositories()[0]?.repo ?? "";
    expect(lore.recall({ query: "deploy", count_shown: false }).hits.map((h) => h.id)).toEqual([
      ID,
    ]);
    expect(reportMe(lore.entryIndex, name, "ann")).toEqual({ items: [] });
    lore.recall({ query: "deploy" });
    lore.recall({ query: "deploy", count_shown: true });
    await lore.open(ID);
    expect(reportMe(lore.entryIndex, name, "ann").items).toMatchObject([
      { id: ID, shown: 2, read: 1 },
    ]);
  });
});
