import { describe, expect, it } from "vitest";
import { forgeRepoOfOrigin } from "./forge-origin.js";

describe("forgeRepoOfOrigin", () => {
  it("names owner/repo for every origin form on the forge's host", () => {
    const forge = "https://git.example.com";
    for (const origin of [
      "https://git.example.com/Acme/Api.git",
      "https://git.example.com/Acme/Api",
      "https://alice:tok@git.example.com:443/Acme/Api.git/",
      "ssh://git@git.example.com:2222/Acme/Api.git",
      "git@git.example.com:Acme/Api.git",
      "https://GIT.example.com/Acme/Api.git",
    ])
      expect(forgeRepoOfOrigin(origin, forge), origin).toEqual({ owner: "Acme", repo: "Api" });
  });

  it("keeps a sub-path prefix of the forge", () => {
    const forge = "https://example.com/gitea/";
    expect(forgeRepoOfOrigin("https://example.com/gitea/o/r.git", forge)).toEqual({
      owner: "o",
      repo: "r",
    });
    expect(forgeRepoOfOrigin("https://example.com/o/r.git", forge)).toBeNull();
  });

  it("answers null for another host, a local path, or a path that is not owner/repo", () => {
    const forge = "http://127.0.0.1:3000";
    expect(forgeRepoOfOrigin("https://github.com/o/r.git", forge)).toBeNull();
    expect(forgeRepoOfOrigin("/srv/git/r.git", forge)).toBeNull();
    expect(forgeRepoOfOrigin("http://127.0.0.1:3000/o/r/extra.git", forge)).toBeNull();
    expect(forgeRepoOfOrigin("http://127.0.0.1:3000/r.git", forge)).toBeNull();
    expect(forgeRepoOfOrigin("", forge)).toBeNull();
    expect(forgeRepoOfOrigin("http://127.0.0.1:3000/o/r.git", forge)).toEqual({
      owner: "o",
      repo: "r",
    });
  });
});
