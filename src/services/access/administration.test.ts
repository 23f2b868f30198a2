import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeEngines } from "../../../test/helpers/store-engines.js";
import type { ServerStore } from "../../ports/server-store.js";
import { listBranchRules, protectBranch, unprotectBranch } from "./branch-rules.js";
import { grantAccess, listAccess, revokeAccess } from "./grants.js";
import { addGroup, addMember, listGroups, removeGroup, removeMember } from "./groups.js";
import { addUser, removeUser } from "./users.js";

describe.each(storeEngines("admin"))(
  "users, groups, grants and branch rules by name ($name)",
  (engine) => {
    let dir: string;
    let store: ServerStore;
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "lore-admin-"));
      store = await engine.open(join(dir, "data"));
      for (const name of ["anna", "boris"]) await addUser(store, { name, now: 1 });
      await store.addRepo({
        owner: "acme",
        name: "app",
        public: false,
        defaultBranch: "main",
        createdAt: 1,
      });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("keeps the last site admin (last_admin); once there is another, either may go", async () => {
      await addUser(store, { name: "root", siteAdmin: true, now: 1 });
      await expect(removeUser(store, "root")).rejects.toMatchObject({ code: "last_admin" });
      expect(await store.getUser("root")).toBeDefined();
      await addUser(store, { name: "root2", siteAdmin: true, now: 2 });
      await removeUser(store, "root");
      expect(await store.getUser("root")).toBeUndefined();
      await expect(removeUser(store, "root2")).rejects.toMatchObject({ code: "last_admin" });
    });

    it("refuses bad and unknown names with their codes", async () => {
      await expect(addUser(store, { name: "-rf", now: 1 })).rejects.toMatchObject({
        code: "invalid_input",
      });
      await expect(addUser(store, { name: "anna", now: 1 })).rejects.toMatchObject({
        code: "user_exists",
        message: "the user anna already exists",
      });
      await expect(removeUser(store, "nobody")).rejects.toMatchObject({ code: "user_not_found" });
      await expect(addGroup(store, { name: "..", now: 1 })).rejects.toMatchObject({
        code: "invalid_input",
      });
      await expect(removeGroup(store, "nobody")).rejects.toMatchObject({ code: "group_not_found" });
      await expect(addMember(store, "nobody", "anna")).rejects.toMatchObject({
        code: "group_not_found",
      });
      await expect(
        grantAccess(store, { subject: "anna", repo: "acme/none", level: "read" }),
      ).rejects.toMatchObject({
        code: "repo_not_found",
      });
      await expect(
        grantAccess(store, { subject: "group:none", repo: "acme/app", level: "read" }),
      ).rejects.toMatchObject({
        code: "group_not_found",
      });
    });

    it("groups with members; grants listed users first, then groups; revoke says whether there was one", async () => {
      await addGroup(store, { name: "leads", now: 1 });
      await addMember(store, "leads", "boris");
      await addMember(store, "leads", "anna");
      expect((await listGroups(store)).map((g) => [g.name, g.members])).toEqual([
        ["leads", ["anna", "boris"]],
      ]);
      expect(await removeMember(store, "leads", "anna")).toBe(true);
      expect(await removeMember(store, "leads", "anna")).toBe(false);
      await grantAccess(store, { subject: "group:leads", repo: "acme/app", level: "write" });
      await grantAccess(store, { subject: "boris", repo: "acme/app", level: "read" });
      await grantAccess(store, { subject: "anna", repo: "acme/app", level: "admin" });
      expect((await listAccess(store, "acme/app")).grants).toEqual([
        { subject: "anna", level: "admin" },
        { subject: "boris", level: "read" },
        { subject: "group:leads", level: "write" },
      ]);
      expect(await revokeAccess(store, { subject: "boris", repo: "acme/app" })).toBe(true);
      expect(await revokeAccess(store, { subject: "boris", repo: "acme/app" })).toBe(false);
      await removeGroup(store, "leads");
      expect((await listAccess(store, "acme/app")).grants).toEqual([
        { subject: "anna", level: "admin" },
      ]);
    });

    it("branch rules by name: protect, replace, list, unprotect; bad patterns refused", async () => {
      await addGroup(store, { name: "leads", now: 1 });
      await protectBranch(store, {
        repo: "acme/app",
        pattern: "release/*",
        push: ["anna", "group:leads"],
        allowForcePush: false,
      });
      await protectBranch(store, {
        repo: "acme/app",
        pattern: "main",
        push: [],
        allowForcePush: true,
        requiredApprovals: 2,
      });
      expect(await listBranchRules(store, "acme/app")).toEqual([
        { pattern: "main", push: [], allowForcePush: true, requiredApprovals: 2 },
        {
          pattern: "release/*",
          push: ["anna", "group:leads"],
          allowForcePush: false,
          requiredApprovals: 0,
        },
      ]);
      await expect(
        protectBranch(store, {
          repo: "acme/app",
          pattern: "x",
          push: [],
          allowForcePush: false,
          requiredApprovals: 101,
        }),
      ).rejects.toMatchObject({ code: "invalid_input" });
      await protectBranch(store, {
        repo: "acme/app",
        pattern: "release/*",
        push: ["boris"],
        allowForcePush: false,
      });
      expect((await listBranchRules(store, "acme/app"))[1]?.push).toEqual(["boris"]);
      expect(await unprotectBranch(store, { repo: "acme/app", pattern: "main" })).toBe(true);
      expect(await unprotectBranch(store, { repo: "acme/app", pattern: "main" })).toBe(false);
      for (const bad of ["", "-x", "a..b", "refs/heads/main", "a b"]) {
        await expect(
          protectBranch(store, { repo: "acme/app", pattern: bad, push: [], allowForcePush: false }),
        ).rejects.toMatchObject({ code: "invalid_input" });
      }
      await expect(
        protectBranch(store, {
          repo: "acme/app",
          pattern: "main",
          push: ["nobody"],
          allowForcePush: false,
        }),
      ).rejects.toMatchObject({ code: "user_not_found" });
    });
  },
);
