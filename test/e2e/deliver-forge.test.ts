import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../helpers/fake-gitea.js";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { isolatedEnv, runLore } from "./run-lore.js";

// `lore deliver --forge` (the Gitea paragraph): local drafts of a clone whose origin
// is on the configured Gitea are committed through Gitea's API, a separate delivery opening
// a pull request labelled lore:machine; the clone's own branches and work tree stay as they
// are.

let gitea: FakeGitea;
let repo: TestRepo;
let sandbox: ReturnType<typeof isolatedEnv>;

beforeAll(async () => {
  gitea = await startFakeGitea({ user: "acme" });
  await gitea.addRepo("api", { "README.md": "r\n" });
  repo = await makeRepo({ "README.md": "r\n" });
  await repo.git(["remote", "add", "origin", `${gitea.url}/acme/api.git`]);
  sandbox = isolatedEnv();
  const config = join(sandbox.env.XDG_CONFIG_HOME as string, "lore");
  mkdirSync(config, { recursive: true });
  writeFileSync(
    join(config, "lore.toml"),
    `[forge]\nkind = "gitea"\nurl = "${gitea.url}"\nuser = "acme"\n`,
  );
  writeFileSync(join(config, "auth.toml"), `[gitea]\ntoken = "${gitea.token}"\n`, {
    mode: 0o600,
  });
});

afterAll(async () => {
  await gitea?.close();
  await repo?.cleanup();
  sandbox?.cleanup();
});

const lore = (args: readonly string[]) => runLore(args, { cwd: repo.dir, env: sandbox.env });

describe("lore deliver --forge", () => {
  it("commits the drafts on Gitea in one commit and opens a lore:machine pull request", async () => {
    const added = await lore([
      "draft",
      "add",
      "--title",
      "Retry the flaky upload once",
      "--body",
      "The CDN drops the first request after a deploy.",
      "--json",
    ]);
    expect(added.code, added.stderr).toBe(0);
    const draft = JSON.parse(added.stdout) as { id: string };
    const headBefore = (await repo.git(["rev-parse", "HEAD"])).trim();

    const run = await lore([
      "deliver",
      "--forge",
      "--branch-mode",
      "separate",
      "--label",
      "x",
      "--json",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as {
      commits: string[];
      branch: string;
      merge_request?: number;
      delivered: string[];
    };
    expect(answer).toMatchObject({ branch: "knowledge/main-x", delivered: [draft.id] });
    expect(answer.commits).toHaveLength(1);
    expect(answer.commits[0]).toBe(
      (await gitea.git("api", ["rev-parse"], ["knowledge/main-x"])).trim(),
    );
    const files = await gitea.git("api", ["ls-tree", "-r", "--name-only"], ["knowledge/main-x"]);
    expect(files.split("\n")).toContain(`.gitriver/knowledge/${draft.id}.md`);
    const pull = gitea.pulls("api").find((p) => p.number === answer.merge_request);
    expect(pull).toMatchObject({ labels: [{ name: "lore:machine" }] });
    // The clone is not touched: its HEAD and branches are as before.
    expect((await repo.git(["rev-parse", "HEAD"])).trim()).toBe(headBefore);
    expect(await repo.git(["branch", "--list", "knowledge/*"])).toBe("");
  });

  it("without a Gitea origin, --forge is refused with what to do", async () => {
    const other = await makeRepo({ "README.md": "r\n" });
    try {
      const run = await runLore(["deliver", "--forge"], { cwd: other.dir, env: sandbox.env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('has no origin remote on a [forge] kind = "gitea" server');
    } finally {
      await other.cleanup();
    }
  });
});
