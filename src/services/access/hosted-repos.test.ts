import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeEngines } from "../../../test/helpers/store-engines.js";
import { initBareRepo } from "../../adapters/git-cli/init-bare.js";
import type { ServerStore } from "../../ports/server-store.js";
import {
  bareRepoPath,
  createRepo,
  type HostedRepoDeps,
  listRepos,
  removeRepo,
} from "./hosted-repos.js";

describe.each(storeEngines("hosted"))("hosted repositories ($name)", (engine) => {
  let dir: string;
  let data: string;
  let store: ServerStore;
  let deps: HostedRepoDeps;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "lore-hosted-"));
    data = join(dir, "data");
    store = await engine.open(data);
    deps = { store, dataDir: data, initBare: initBareRepo };
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("puts a repository at <data>/repos/<owner>/<name>.git and refuses names that leave it", () => {
    expect(bareRepoPath("/srv/lore", "acme/app")).toBe("/srv/lore/repos/acme/app.git");
    for (const bad of ["../x", "acme/..", "acme/%2e%2e", "-rf/app", "a/b/c"]) {
      expect(() => bareRepoPath("/srv/lore", bad)).toThrow(
        expect.objectContaining({ code: "invalid_repo_name" }),
      );
    }
  });

  it("creates a real bare repository with its default branch, runs afterCreate, lists and removes it", async () => {
    const seen: string[] = [];
    const { repo, dir: bare } = await createRepo(
      { ...deps, afterCreate: async (d) => void seen.push(d) },
      { fullName: "acme/app", public: true, defaultBranch: "trunk", now: 3 },
    );
    expect(repo).toMatchObject({
      fullName: "acme/app",
      public: true,
      defaultBranch: "trunk",
      createdAt: 3,
    });
    expect(bare).toBe(join(data, "repos", "acme", "app.git"));
    expect(readFileSync(join(bare, "HEAD"), "utf8")).toBe("ref: refs/heads/trunk\n");
    expect(existsSync(join(bare, "objects"))).toBe(true);
    expect(seen).toEqual([bare]);
    await createRepo(deps, { fullName: "acme/lib", now: 4 });
    expect((await listRepos(deps)).map((r) => [r.fullName, r.defaultBranch, r.public])).toEqual([
      ["acme/app", "trunk", true],
      ["acme/lib", "main", false],
    ]);
    await expect(createRepo(deps, { fullName: "acme/app", now: 5 })).rejects.toMatchObject({
      code: "repo_exists",
    });
    expect(await removeRepo(deps, "acme/app")).toBe(bare);
    expect(existsSync(bare)).toBe(false);
    await expect(removeRepo(deps, "acme/app")).rejects.toMatchObject({
      code: "repo_not_found",
      message: "no repository acme/app",
    });
  });

  it("leaves no record behind when the bare repository cannot be made, and never reuses a stray folder", async () => {
    const failing: HostedRepoDeps = {
      ...deps,
      initBare: async () => {
        throw new Error("disk full");
      },
    };
    await expect(createRepo(failing, { fullName: "acme/app", now: 1 })).rejects.toThrow(
      "disk full",
    );
    expect(await store.getRepo("acme/app")).toBeUndefined();
    mkdirSync(join(data, "repos", "acme", "stray.git"), { recursive: true });
    await expect(createRepo(deps, { fullName: "acme/stray", now: 1 })).rejects.toMatchObject({
      code: "repo_exists",
    });
    expect(await store.getRepo("acme/stray")).toBeUndefined();
    await expect(
      createRepo(deps, { fullName: "acme/x", defaultBranch: "-b", now: 1 }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
  });
});
