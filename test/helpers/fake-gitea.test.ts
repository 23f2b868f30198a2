import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "./fake-gitea.js";

/**
 * Field names of Gitea's API structs (Gitea 1.20+ swagger: modules/structs), as the
 * documentation lists them. The fake must answer with exactly these names, so a client
 * that works against the fake reads a real Gitea's answers the same way.
 */
const DOCUMENTED = {
  FilesResponse: ["commit", "files", "verification"],
  FileCommitResponse: [
    "author",
    "committer",
    "created",
    "html_url",
    "message",
    "parents",
    "sha",
    "tree",
    "url",
  ],
  CommitUser: ["date", "email", "name"],
  CommitMeta: ["created", "sha", "url"],
  PayloadCommitVerification: ["payload", "reason", "signature", "signer", "verified"],
  ContentsResponse: [
    "_links",
    "content",
    "download_url",
    "encoding",
    "git_url",
    "html_url",
    "last_commit_sha",
    "name",
    "path",
    "sha",
    "size",
    "submodule_git_url",
    "target",
    "type",
    "url",
  ],
  Branch: [
    "commit",
    "effective_branch_protection_name",
    "enable_status_check",
    "name",
    "protected",
    "required_approvals",
    "status_check_contexts",
    "user_can_merge",
    "user_can_push",
  ],
  PayloadCommit: [
    "added",
    "author",
    "committer",
    "id",
    "message",
    "modified",
    "removed",
    "timestamp",
    "url",
    "verification",
  ],
  /** Every documented field of structs.PullRequest; the fake answers a subset of them. */
  PullRequest: [
    "additions",
    "allow_maintainer_edit",
    "assignee",
    "assignees",
    "base",
    "body",
    "changed_files",
    "closed_at",
    "comments",
    "created_at",
    "deletions",
    "diff_url",
    "draft",
    "due_date",
    "head",
    "html_url",
    "id",
    "is_locked",
    "labels",
    "merge_base",
    "merge_commit_sha",
    "mergeable",
    "merged",
    "merged_at",
    "merged_by",
    "milestone",
    "number",
    "patch_url",
    "pin_order",
    "requested_reviewers",
    "review_comments",
    "state",
    "title",
    "updated_at",
    "url",
    "user",
  ],
  PRBranchInfo: ["label", "ref", "repo", "repo_id", "sha"],
  Label: ["color", "description", "exclusive", "id", "is_archived", "name", "url"],
  GitTreeResponse: ["page", "sha", "total_count", "tree", "truncated", "url"],
  GitEntry: ["mode", "path", "sha", "size", "type", "url"],
};

/** What Lore reads of a pull request: these must be present. */
const PULL_READ = [
  "base",
  "head",
  "html_url",
  "id",
  "labels",
  "merged",
  "number",
  "state",
  "title",
  "body",
];

let gitea: FakeGitea;
afterEach(async () => {
  await gitea?.close();
});

const keys = (value: unknown) => Object.keys(value as object).sort();

describe("the fake Gitea answers in Gitea's documented shapes", () => {
  it("ChangeFiles, branch, git tree, pull request, labels: field names and statuses", async () => {
    gitea = await startFakeGitea();
    await gitea.addRepo("proj", { "README.md": "r\n" });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${gitea.url}/api/v1/repos/${gitea.user}/proj${path}`, {
        method,
        headers: { Authorization: `token ${gitea.token}`, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const changed = await api("POST", "/contents", {
      branch: "main",
      new_branch: "feature",
      message: "two files",
      author: { name: "A", email: "a@example.com" },
      committer: { name: "C", email: "c@example.com" },
      dates: { author: "2026-12-01T10:00:00Z", committer: "2026-12-01T10:00:00Z" },
      files: [
        { operation: "create", path: "k/a.md", content: Buffer.from("a").toString("base64") },
        { operation: "create", path: "k/b.md", content: Buffer.from("b").toString("base64") },
      ],
    });
    expect(changed.status).toBe(201);
    expect(keys(changed.body)).toEqual(DOCUMENTED.FilesResponse);
    const commit = changed.body.commit as Record<string, unknown>;
    expect(keys(commit)).toEqual(DOCUMENTED.FileCommitResponse);
    expect(keys(commit.author)).toEqual(DOCUMENTED.CommitUser);
    expect(commit.author).toMatchObject({
      name: "A",
      email: "a@example.com",
      date: "2026-12-01T10:00:00Z",
    });
    expect(keys((commit.parents as unknown[])[0])).toEqual(DOCUMENTED.CommitMeta);
    expect(keys(commit.tree)).toEqual(DOCUMENTED.CommitMeta);
    expect(keys(changed.body.verification)).toEqual(DOCUMENTED.PayloadCommitVerification);
    const files = changed.body.files as Record<string, unknown>[];
    expect(files.map((f) => f.path)).toEqual(["k/a.md", "k/b.md"]);
    for (const file of files) expect(keys(file)).toEqual(DOCUMENTED.ContentsResponse);

    const branch = await api("GET", "/branches/feature");
    expect(branch.status).toBe(200);
    expect(keys(branch.body)).toEqual(DOCUMENTED.Branch);
    expect(keys(branch.body.commit)).toEqual(DOCUMENTED.PayloadCommit);
    expect((branch.body.commit as { id: string }).id).toBe(commit.sha);

    const tree = await api("GET", `/git/trees/${commit.sha}?recursive=true`);
    expect(tree.status).toBe(200);
    expect(keys(tree.body)).toEqual(DOCUMENTED.GitTreeResponse);
    const entries = tree.body.tree as Record<string, unknown>[];
    for (const entry of entries) expect(keys(entry)).toEqual(DOCUMENTED.GitEntry);
    expect(entries.map((e) => `${e.type} ${e.path}`)).toEqual([
      "blob README.md",
      "tree k",
      "blob k/a.md",
      "blob k/b.md",
    ]);

    const label = await api("POST", "/labels", { name: "lore:machine", color: "#5319E7" });
    expect(label.status).toBe(201);
    expect(keys(label.body)).toEqual(DOCUMENTED.Label);
    expect(label.body.color).toBe("5319e7");

    const pull = await api("POST", "/pulls", {
      head: "feature",
      base: "main",
      title: "T",
      body: "B",
    });
    expect(pull.status).toBe(201);
    expect(DOCUMENTED.PullRequest).toEqual(expect.arrayContaining(keys(pull.body)));
    expect(keys(pull.body)).toEqual(expect.arrayContaining(PULL_READ));
    expect(keys(pull.body.head)).toEqual(DOCUMENTED.PRBranchInfo);
    expect(pull.body).toMatchObject({
      number: 1,
      state: "open",
      head: { ref: "feature" },
      base: { ref: "main" },
    });

    const labelled = await api("POST", "/issues/1/labels", { labels: [label.body.id] });
    expect(labelled.status).toBe(200);
    expect(labelled.body).toEqual([label.body]);
    expect((await api("GET", "/pulls/1")).body.labels).toEqual([label.body]);
    expect((await api("GET", "/pulls/2")).status).toBe(404);
  });

  it("refuses what Gitea refuses: an existing path, an unknown branch, a protected branch", async () => {
    gitea = await startFakeGitea();
    await gitea.addRepo("proj", { "README.md": "r\n" });
    const post = async (body: unknown) =>
      (
        await fetch(`${gitea.url}/api/v1/repos/${gitea.user}/proj/contents`, {
          method: "POST",
          headers: { Authorization: `token ${gitea.token}`, "Content-Type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    const head = await gitea.git("proj", ["rev-parse"], ["main"]);
    const file = (path: string) => ({ operation: "create", path, content: "eA==" });
    expect(await post({ branch: "main", files: [file("new.md"), file("README.md")] })).toBe(422);
    expect(await post({ branch: "nope", files: [file("new.md")] })).toBe(404);
    gitea.protectBranch("proj", "main");
    expect(await post({ branch: "main", files: [file("new.md")] })).toBe(403);
    // Nothing of the refused calls was written, not even the first file of the first one.
    expect(await gitea.git("proj", ["rev-parse"], ["main"])).toBe(head);
    // A new branch from the protected one is allowed, as in Gitea.
    expect(await post({ branch: "main", new_branch: "k", files: [file("new.md")] })).toBe(201);
  });
});
