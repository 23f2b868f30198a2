import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../../../test/helpers/fake-gitea.js";
import type { DeliveryCommit } from "../../ports/delivery-target.js";
import { giteaDelivery, LORE_MACHINE_LABEL } from "./gitea-delivery-target.js";
import { GiteaForge } from "./gitea-forge.js";

let gitea: FakeGitea;
afterEach(async () => {
  await gitea?.close();
});

const AT = Date.parse("2026-12-01T12:34:56Z");
const ID = ["0192ec1a-7b1a-7def-abcd-000000000001", "0192ec1a-7b1a-7def-abcd-000000000002"];

async function setUp(knobs: Parameters<typeof startFakeGitea>[0] = {}) {
  gitea = await startFakeGitea(knobs);
  await gitea.addRepo("proj", { "README.md": "readme\n", "src/a.ts": "export {};\n" });
  const forge = new GiteaForge({ url: gitea.url, token: gitea.token, pageSize: 2 });
  return { forge, ...giteaDelivery({ forge, owner: gitea.user, repo: "proj" }) };
}

function batch(over: Partial<DeliveryCommit> & Pick<DeliveryCommit, "branch">): DeliveryCommit {
  return {
    expectedHead: undefined,
    files: [
      { path: `.gitriver/knowledge/${ID[0]}.md`, content: "---\nid: one\n---\n\nОдин.\n" },
      { path: `.gitriver/knowledge/${ID[1]}.md`, content: "---\nid: two\n---\n\nДва.\n" },
    ],
    message: "Knowledge: 2 entries",
    author: { name: "Alice Agent", email: "alice@example.com" },
    committer: { name: "Lore", email: "lore@localhost" },
    at: AT,
    ...over,
  };
}

const git = (args: string[], values: string[] = []) => gitea.git("proj", args, values);
const changeFilesCalls = () =>
  gitea.requests.filter(
    (r) => r.method === "POST" && r.path === `/repos/${gitea.user}/proj/contents`,
  );

describe("giteaDelivery: the target", () => {
  it("writes all the batch's files in ONE commit on top of the expected head", async () => {
    const { target } = await setUp();
    expect(await target.defaultBranch()).toBe("main");
    const head = await target.branchHead("main");
    expect(head).toBe(await git(["rev-parse"], ["main"]));
    const wrote = await target.writeCommit(batch({ branch: "main", expectedHead: head }));
    expect(wrote).toEqual({ commit: await git(["rev-parse"], ["main"]) });
    const commit = (wrote as { commit: string }).commit;
    expect(changeFilesCalls()).toHaveLength(1);
    expect(await git(["rev-parse"], [`${commit}^`])).toBe(head);
    expect(await git(["rev-list", "--count"], [commit])).toBe("2");
    expect((await git(["ls-tree", "-r", "--name-only"], [commit])).split("\n")).toEqual([
      `.gitriver/knowledge/${ID[0]}.md`,
      `.gitriver/knowledge/${ID[1]}.md`,
      "README.md",
      "src/a.ts",
    ]);
    expect(await git(["cat-file", "-p"], [`${commit}:.gitriver/knowledge/${ID[1]}.md`])).toBe(
      "---\nid: two\n---\n\nДва.",
    );
    expect(await git(["log", "-1", "--format=%an <%ae>|%cn <%ce>|%at|%s"], [commit])).toBe(
      `Alice Agent <alice@example.com>|Lore <lore@localhost>|${AT / 1000}|Knowledge: 2 entries`,
    );
  });

  it("replaces a file the branch already has (update with its blob sha)", async () => {
    const { target, forge } = await setUp();
    const path = `.gitriver/knowledge/${ID[0]}.md`;
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path,
      content: "old\n",
      message: "m",
    });
    const head = await target.branchHead("main");
    const wrote = await target.writeCommit(batch({ branch: "main", expectedHead: head }));
    const commit = (wrote as { commit: string }).commit;
    expect(await git(["cat-file", "-p"], [`${commit}:${path}`])).toBe("---\nid: one\n---\n\nОдин.");
  });

  it("creates a separate branch from the default branch's head; the default branch stays", async () => {
    const { target } = await setUp();
    const main = await target.branchHead("main");
    const branch = "knowledge/feature/x-20261201-123456";
    expect(await target.branchHead(branch)).toBeUndefined();
    const wrote = await target.writeCommit(batch({ branch, from: main }));
    const commit = (wrote as { commit: string }).commit;
    expect(await target.branchHead(branch)).toBe(commit);
    expect(await git(["rev-parse"], [`${commit}^`])).toBe(main);
    expect(await git(["rev-parse"], ["main"])).toBe(main);
    expect(await git(["ls-tree", "-r", "--name-only"], [commit])).toContain(
      `.gitriver/knowledge/${ID[0]}.md`,
    );
    // Creating it again races: the branch exists now.
    expect(await target.writeCommit(batch({ branch, from: main }))).toEqual({ raced: true });
  });

  it("starts a new branch from another branch when `from` is that branch's head", async () => {
    const { target, forge } = await setUp();
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: "f.txt",
      content: "f",
      message: "feature",
      branch: "feature",
    });
    const feature = (await target.branchHead("feature")) as string;
    const wrote = await target.writeCommit(batch({ branch: "knowledge/feature-l", from: feature }));
    expect(await git(["rev-parse"], [`${(wrote as { commit: string }).commit}^`])).toBe(feature);
  });

  it("answers raced when the head moved, and writes nothing", async () => {
    const { target, forge } = await setUp();
    const stale = await target.branchHead("main");
    await forge.commitFile({
      owner: gitea.user,
      repo: "proj",
      path: "x.md",
      content: "x",
      message: "m",
    });
    const moved = await git(["rev-parse"], ["main"]);
    expect(await target.writeCommit(batch({ branch: "main", expectedHead: stale }))).toEqual({
      raced: true,
    });
    expect(await git(["rev-parse"], ["main"])).toBe(moved);
    expect(changeFilesCalls()).toHaveLength(0);
    // A branch gone is a race too, and so is a `from` no branch points at any more.
    expect(await target.writeCommit(batch({ branch: "gone", expectedHead: stale }))).toEqual({
      raced: true,
    });
    expect(await target.writeCommit(batch({ branch: "knowledge/new", from: stale }))).toEqual({
      raced: true,
    });
    expect(await target.branchHead("knowledge/new")).toBeUndefined();
  });

  it("answers raced when the same file is written between the head check and the write", async () => {
    const { target, forge } = await setUp();
    const head = await target.branchHead("main");
    let once = true;
    gitea.knobs.beforeChangeFiles = async () => {
      if (!once) return;
      once = false;
      await forge.commitFile({
        owner: gitea.user,
        repo: "proj",
        path: `.gitriver/knowledge/${ID[1]}.md`,
        content: "someone else\n",
        message: "concurrent",
      });
    };
    const moved = async () => git(["rev-parse"], ["main"]);
    expect(await target.writeCommit(batch({ branch: "main", expectedHead: head }))).toEqual({
      raced: true,
    });
    expect(await git(["ls-tree", "-r", "--name-only"], [await moved()])).not.toContain(
      `.gitriver/knowledge/${ID[0]}.md`,
    );
  });

  it("refuses a protected branch (branch_protected) and writes nothing", async () => {
    const { target, forge, checkWrite } = await setUp();
    gitea.protectBranch("proj", "main");
    const head = await target.branchHead("main");
    await expect(checkWrite("main")).rejects.toMatchObject({
      code: "branch_protected",
      data: { branch: "main" },
    });
    await expect(checkWrite("knowledge/new")).resolves.toBeUndefined();
    await expect(
      target.writeCommit(batch({ branch: "main", expectedHead: head })),
    ).rejects.toMatchObject({ code: "branch_protected" });
    expect(await git(["rev-parse"], ["main"])).toBe(head);
    // Gitea's own refusal (403 "user cannot commit to repo") maps to the same code.
    await expect(
      forge.changeFiles(gitea.user, "proj", {
        branch: "main",
        files: [{ operation: "create", path: "p.md", content: "cA==" }],
      }),
    ).rejects.toMatchObject({
      code: "branch_protected",
      data: { status: 403, message: `user cannot commit to repo [user: ${gitea.user}]` },
    });
    expect(await git(["rev-parse"], ["main"])).toBe(head);
  });

  it("reads which paths a commit holds, with blob shas, over paged trees", async () => {
    const { target } = await setUp({ knobs: { treePerPage: 2 } });
    const head = (await target.branchHead("main")) as string;
    const wrote = await target.writeCommit(batch({ branch: "main", expectedHead: head }));
    const commit = (wrote as { commit: string }).commit;
    const paths = [
      `.gitriver/knowledge/${ID[0]}.md`,
      `.gitriver/knowledge/${ID[1]}.md`,
      ".gitriver/knowledge/missing.md",
      "README.md",
      "src",
      "nope/deeper/x.md",
    ];
    const found = await target.pathsAt(commit, paths);
    expect([...found.keys()].sort()).toEqual([paths[0], paths[1], "README.md"].sort());
    expect(found.get(paths[0] as string)).toBe(await git(["rev-parse"], [`${commit}:${paths[0]}`]));
    expect(await target.pathsAt(head, paths)).toEqual(
      new Map([["README.md", await git(["rev-parse"], [`${head}:README.md`])]]),
    );
  });
});

describe("giteaDelivery: the pull request", () => {
  it("opens it with head and base right and marks it lore:machine (label made once)", async () => {
    const { target, forge, openMergeRequest } = await setUp();
    const main = await target.branchHead("main");
    await target.writeCommit(batch({ branch: "knowledge/f-1", from: main }));
    await target.writeCommit(batch({ branch: "knowledge/f-2", from: main }));
    const first = await openMergeRequest({
      source: "knowledge/f-1",
      target: "main",
      title: "Knowledge from f",
      body: "2 entries",
    });
    const second = await openMergeRequest({
      source: "knowledge/f-2",
      target: "main",
      title: "Knowledge from f, again",
      body: "2 entries",
    });
    expect([first, second]).toEqual([1, 2]);
    const pr = await forge.getPullRequest(gitea.user, "proj", first);
    expect(pr).toMatchObject({
      number: 1,
      state: "open",
      title: "Knowledge from f",
      body: "2 entries",
      head: { ref: "knowledge/f-1", sha: await target.branchHead("knowledge/f-1") },
      base: { ref: "main" },
    });
    expect(pr?.labels?.map((l) => l.name)).toEqual([LORE_MACHINE_LABEL]);
    expect((await forge.getPullRequest(gitea.user, "proj", second))?.labels?.[0]?.name).toBe(
      LORE_MACHINE_LABEL,
    );
    const labels = await forge.listLabels(gitea.user, "proj");
    expect(labels.filter((l) => l.name === LORE_MACHINE_LABEL)).toHaveLength(1);
    expect(
      gitea.requests.filter(
        (r) => r.method === "POST" && r.path.endsWith("/labels") && !r.path.includes("/issues/"),
      ),
    ).toHaveLength(1);
    // A retried delivery finds the open pull request instead of failing on Gitea's 409.
    expect(
      await openMergeRequest({ source: "knowledge/f-1", target: "main", title: "t", body: "b" }),
    ).toBe(1);
    expect(gitea.pulls("proj")).toHaveLength(2);
  });

  it("uses a lore:machine label the repository already has", async () => {
    const { forge, target, openMergeRequest } = await setUp();
    for (const name of ["bug", "docs", LORE_MACHINE_LABEL])
      await forge.createLabel(gitea.user, "proj", { name, color: "#00aabb" });
    const existing = (await forge.listLabels(gitea.user, "proj")).find(
      (l) => l.name === LORE_MACHINE_LABEL,
    );
    await target.writeCommit(
      batch({ branch: "knowledge/x", from: await target.branchHead("main") }),
    );
    const number = await openMergeRequest({
      source: "knowledge/x",
      target: "main",
      title: "t",
      body: "b",
    });
    expect((await forge.getPullRequest(gitea.user, "proj", number))?.labels).toEqual([existing]);
    expect(await forge.listLabels(gitea.user, "proj")).toHaveLength(3);
  });

  it("tells a delivery whose pull request was closed unmerged, or whose branch is gone", async () => {
    const { target, isStale, openMergeRequest } = await setUp();
    const main = await target.branchHead("main");
    const wrote = await target.writeCommit(batch({ branch: "knowledge/s", from: main }));
    const commit = (wrote as { commit: string }).commit;
    const number = await openMergeRequest({
      source: "knowledge/s",
      target: "main",
      title: "t",
      body: "",
    });
    const delivery = { branch: "knowledge/s", commit, at: AT, mergeRequest: number };
    expect(await isStale(delivery)).toBe(false);
    await gitea.git("proj", ["update-ref", "-d"], ["refs/heads/knowledge/s"]);
    expect(await isStale(delivery)).toBe(true);
    gitea.closePull("proj", number, { merged: true });
    expect(await isStale(delivery)).toBe(false);
    for (const pr of gitea.pulls("proj")) pr.merged = false;
    expect(await isStale(delivery)).toBe(true);
    expect(await isStale({ ...delivery, mergeRequest: 99 })).toBe(true);
    expect(await isStale({ branch: "main", commit, at: AT })).toBe(false);
    expect(await isStale({ branch: "deleted", commit, at: AT })).toBe(true);
  });
});
