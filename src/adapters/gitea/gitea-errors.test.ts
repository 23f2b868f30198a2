import { describe, expect, it } from "vitest";
import { giteaStatusError } from "./gitea-errors.js";

describe("giteaStatusError", () => {
  it("a 403 of Gitea's branch protection is branch_protected; another 403 stays forge_unauthorized", () => {
    const refused = giteaStatusError(403, "user cannot commit to repo [user: alice]", {
      repo: "proj",
      branch: "main",
    });
    expect(refused.code).toBe("branch_protected");
    expect(refused.data).toMatchObject({ status: 403, branch: "main" });
    expect(refused.message).toContain("main");
    expect(
      giteaStatusError(403, "path is protected and can not be changed [path: a.md]", {}).code,
    ).toBe("branch_protected");
    expect(
      giteaStatusError(403, "user should have a permission to write to this branch", {}).code,
    ).toBe("forge_unauthorized");
    expect(giteaStatusError(401, "token is required").code).toBe("forge_unauthorized");
  });

  it("ChangeFiles' 422 about an existing file or new branch is forge_conflict; 413 is forge_failed", () => {
    expect(giteaStatusError(422, "repository file already exists [path: a.md]").code).toBe(
      "forge_conflict",
    );
    expect(giteaStatusError(422, "branch already exists [name: k]").code).toBe("forge_conflict");
    expect(giteaStatusError(422, "sha does not match [given: a, expected: b]").code).toBe(
      "forge_conflict",
    );
    expect(giteaStatusError(413, "Request Entity Too Large").code).toBe("forge_failed");
  });
});
