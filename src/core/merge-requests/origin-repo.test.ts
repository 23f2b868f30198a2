import { describe, expect, it } from "vitest";
import { repoOfRemote } from "./origin-repo.js";

describe("repoOfRemote", () => {
  const server = "http://127.0.0.1:7377";
  it("reads owner/name of a remote on the team server", () => {
    expect(repoOfRemote("http://127.0.0.1:7377/acme/app.git", server)).toBe("acme/app");
    expect(repoOfRemote("http://tok@127.0.0.1:7377/acme/app", server)).toBe("acme/app");
    expect(repoOfRemote("ssh://git@127.0.0.1:2222/acme/app.git", server)).toBe("acme/app");
  });
  it("refuses a remote elsewhere or not of that shape", () => {
    expect(repoOfRemote("http://127.0.0.1:8000/acme/app.git", server)).toBeUndefined();
    expect(repoOfRemote("https://github.com/acme/app.git", server)).toBeUndefined();
    expect(repoOfRemote("http://127.0.0.1:7377/acme/app/extra.git", server)).toBeUndefined();
    expect(repoOfRemote("/srv/git/acme/app.git", server)).toBeUndefined();
  });
});
