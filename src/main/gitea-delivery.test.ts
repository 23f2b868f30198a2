import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../../test/helpers/fake-gitea.js";
import { makeRepo } from "../../test/helpers/make-repo.js";
import { LORE_MACHINE_LABEL } from "../adapters/gitea/gitea-delivery-target.js";
import { giteaDeliveryFor } from "./gitea-delivery.js";
import { loadConfigReader, loadSettings } from "./load-config.js";

let gitea: FakeGitea | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await gitea?.close();
  gitea = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
beforeAll(loadConfigReader);

/** A home with lore.toml (`[forge]` as given) and auth.toml (0600), and a repository whose origin is `origin`. */
async function setUp(forgeToml: string, origin: string | null, token: string) {
  const home = await mkdtemp(join(tmpdir(), "lore-gitea-delivery-"));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const xdg = join(home, ".config");
  await mkdir(join(xdg, "lore"), { recursive: true });
  await writeFile(join(xdg, "lore", "lore.toml"), forgeToml);
  await writeFile(join(xdg, "lore", "auth.toml"), `[gitea]\ntoken = "${token}"\n`, {
    mode: 0o600,
  });
  const work = await makeRepo({ "README.md": "r\n" });
  cleanups.push(work.cleanup);
  if (origin !== null) await work.git(["remote", "add", "origin", origin]);
  const env = { HOME: home, XDG_CONFIG_HOME: xdg, LORE_USER: "alice" };
  return { settings: loadSettings({ cwd: work.dir, env }), env, work };
}

describe("giteaDeliveryFor", () => {
  it("builds the target of the origin's repository on the configured Gitea", async () => {
    gitea = await startFakeGitea({ user: "acme" });
    await gitea.addRepo("api", { "README.md": "r\n" });
    const { settings, env, work } = await setUp(
      `[forge]\nkind = "gitea"\nurl = "${gitea.url}"\nuser = "acme"\n`,
      `${gitea.url}/acme/api.git`,
      gitea.token,
    );
    const made = await giteaDeliveryFor(settings, env, work.dir);
    expect(made).toMatchObject({ owner: "acme", repo: "api" });
    if (made === null) return;
    const main = await made.target.branchHead("main");
    expect(main).toBe(await gitea.git("api", ["rev-parse"], ["main"]));
    const wrote = await made.target.writeCommit({
      branch: "knowledge/main-x",
      expectedHead: undefined,
      from: main,
      files: [{ path: ".gitriver/knowledge/a.md", content: "a\n" }],
      message: "Knowledge",
      author: { name: "A", email: "a@example.com" },
      committer: { name: "Lore", email: "lore@localhost" },
      at: Date.parse("2026-12-01T00:00:00Z"),
    });
    expect(wrote).toEqual({ commit: await gitea.git("api", ["rev-parse"], ["knowledge/main-x"]) });
    const number = await made.openMergeRequest({
      source: "knowledge/main-x",
      target: "main",
      title: "t",
      body: "b",
    });
    expect(gitea.pulls("api")[0]).toMatchObject({
      number,
      labels: [{ name: LORE_MACHINE_LABEL }],
    });
  });

  it("is null without a Gitea, without an origin, or with an origin elsewhere", async () => {
    gitea = await startFakeGitea();
    const toml = `[forge]\nkind = "gitea"\nurl = "${gitea.url}"\nuser = "alice"\n`;
    for (const origin of [null, "https://github.com/alice/api.git", "/srv/git/api.git"]) {
      const { settings, env, work } = await setUp(toml, origin, gitea.token);
      expect(await giteaDeliveryFor(settings, env, work.dir), String(origin)).toBeNull();
    }
    const local = await setUp(`[forge]\nroot = "/srv/repos"\n`, `${gitea.url}/alice/api.git`, "t");
    expect(await giteaDeliveryFor(local.settings, local.env, local.work.dir)).toBeNull();
    const none = await setUp("", `${gitea.url}/alice/api.git`, "t");
    expect(await giteaDeliveryFor(none.settings, none.env, none.work.dir)).toBeNull();
    // No request reached the forge for any of them.
    expect(gitea.requests).toEqual([]);
  });
});
