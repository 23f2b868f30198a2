import { describe, expect, it } from "vitest";
import { normaliseRemoteUrl, repoIdentity } from "./repo-identity.js";

describe("normaliseRemoteUrl", () => {
  it.each([
    ["git@github.com:Acme/API.git", "github.com/acme/api"],
    ["https://github.com/acme/api", "github.com/acme/api"],
    ["https://user:token@GitHub.com/acme/api.git/", "github.com/acme/api"],
    ["ssh://git@github.com:22/acme/api.git", "github.com/acme/api"],
    ["git://github.com/acme/api.git", "github.com/acme/api"],
    ["/srv/git/api.git", "file:/srv/git/api"],
    ["file:///srv/git/api.git", "file:/srv/git/api"],
    ["../upstream/api.git", "file:/home/u/upstream/api"],
  ])("%s → %s", (url, identity) => {
    expect(normaliseRemoteUrl(url, "/home/u/clone")).toBe(identity);
  });

  it("never keeps credentials", () => {
    expect(normaliseRemoteUrl("https://bob:s3cret@git.example.com/a/b", "/")).toBe(
      "git.example.com/a/b",
    );
  });
});

describe("repoIdentity", () => {
  it("prefers the origin, then the root commit, then the path", () => {
    expect(repoIdentity({ originUrl: "git@host:a/b.git", rootCommits: ["ff"], path: "/p" })).toBe(
      "host/a/b",
    );
    expect(repoIdentity({ rootCommits: ["bb", "aa"], path: "/p" })).toBe("commit:aa");
    expect(repoIdentity({ rootCommits: [], path: "/p" })).toBe("/p");
  });
});
