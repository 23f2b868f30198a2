import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeEngines } from "../../../test/helpers/store-engines.js";
import { DRAFT_LIMIT_DEFAULT, type DraftInput } from "../../core/drafts/draft.js";
import { openIndex } from "../../index/entry-index.js";
import type { ServerStore } from "../../ports/server-store.js";
import { localDraftLimit, serverDraftLimit } from "./draft-limit.js";
import { counterMinter, refusalOf } from "./drafts.test-helpers.js";
import { writeDraft } from "./write-draft.js";

describe.each(storeEngines("limits"))("draft limits ($name)", (engine) => {
  let dir: string;
  let store: ServerStore;
  const ids: Record<string, number> = {};
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "lore-draft-limit-"));
    store = await engine.open(join(dir, "data"));
    for (const name of ["anna", "boris", "vera"]) {
      ids[name] = (await store.addUser({ name, siteAdmin: false, createdAt: 1 })).id;
    }
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("serverDraftLimit", () => {
    it("is 200 by default, for an unknown user too; 200 locally", async () => {
      const limitFor = serverDraftLimit(store);
      expect(await limitFor("anna")).toBe(200);
      expect(await limitFor("nobody")).toBe(200);
      expect(await localDraftLimit("anna")).toBe(DRAFT_LIMIT_DEFAULT);
    });

    it("takes the user's own limit over their groups', else the largest group limit", async () => {
      const small = await store.addGroup({ name: "small", createdAt: 1 });
      const big = await store.addGroup({ name: "big", createdAt: 1 });
      await store.addMember(small.id, ids.anna as number);
      await store.addMember(big.id, ids.anna as number);
      await store.addMember(small.id, ids.boris as number);
      await store.setDraftLimit({ kind: "group", id: small.id }, 50);
      await store.setDraftLimit({ kind: "group", id: big.id }, 500);
      const limitFor = serverDraftLimit(store);
      expect(await limitFor("anna")).toBe(500);
      // A group limit may also lower the default.
      expect(await limitFor("boris")).toBe(50);
      expect(await limitFor("vera")).toBe(200);
      await store.setDraftLimit({ kind: "user", id: ids.anna as number }, 10);
      expect(await limitFor("anna")).toBe(10);
      await store.removeDraftLimit({ kind: "user", id: ids.anna as number });
      expect(await limitFor("anna")).toBe(500);
    });

    it("through writeDraft: the 201st refused; raised by a user limit; a group limit", async () => {
      const index = openIndex(join(dir, "index.db"));
      try {
        const mintId = counterMinter(1);
        const limitFor = serverDraftLimit(store);
        const note = (n: number): DraftInput => ({ branch: "main", title: `N${n}`, body: "b" });
        const write = (author: string, n: number) =>
          writeDraft({ index, limitFor, mintId }, { repo: "acme/app", author, input: note(n) });
        for (let i = 0; i < 200; i += 1) await write("anna", i);
        const refused = await refusalOf(() => write("anna", 200));
        expect(refused.code).toBe("draft_limit_reached");
        expect(refused.data).toEqual({ author: "anna", count: 200, limit: 200 });

        await store.setDraftLimit({ kind: "user", id: ids.anna as number }, 201);
        await write("anna", 200);
        expect((await refusalOf(() => write("anna", 201))).data).toEqual({
          author: "anna",
          count: 201,
          limit: 201,
        });

        const team = await store.addGroup({ name: "team", createdAt: 1 });
        await store.addMember(team.id, ids.boris as number);
        await store.setDraftLimit({ kind: "group", id: team.id }, 2);
        await write("boris", 1);
        await write("boris", 2);
        expect((await refusalOf(() => write("boris", 3))).data).toEqual({
          author: "boris",
          count: 2,
          limit: 2,
        });
      } finally {
        index.close();
      }
    });
  });
});
