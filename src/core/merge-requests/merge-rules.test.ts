import { describe, expect, it } from "vitest";
import {
  checkBranchName,
  checkTitleAndBody,
  MR_BODY_MAX_BYTES,
  mergeMessage,
  requiredApprovals,
} from "./merge-rules.js";

describe("merge-request rules", () => {
  it("needs the largest requiredApprovals of the matching rules", () => {
    const rules = [
      { pattern: "main", requiredApprovals: 1 },
      { pattern: "**", requiredApprovals: 0 },
      { pattern: "ma*", requiredApprovals: 2 },
      { pattern: "release/*", requiredApprovals: 5 },
      { pattern: "dev" },
    ];
    expect(requiredApprovals(rules, "main")).toBe(2);
    expect(requiredApprovals(rules, "dev")).toBe(0);
    expect(requiredApprovals(rules, "release/1.0")).toBe(5);
    expect(requiredApprovals([], "main")).toBe(0);
  });

  it("refuses branch names git would refuse or read as an option", () => {
    for (const bad of [
      "",
      "-x",
      "refs/heads/main",
      "HEAD",
      "a..b",
      "a b",
      "a:b",
      "x.lock",
      "a/",
      "*",
    ]) {
      expect(() => checkBranchName(bad, "source"), bad).toThrow(
        expect.objectContaining({ code: "invalid_input" }),
      );
    }
    expect(checkBranchName("knowledge/main-notes", "source")).toBe("knowledge/main-notes");
  });

  it("trims the title and limits the body to 64 KiB", () => {
    expect(checkTitleAndBody("  Fix  ", "")).toEqual({ title: "Fix", body: "" });
    expect(() => checkTitleAndBody(" ", "")).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    expect(() => checkTitleAndBody("a\nb", "")).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    expect(() => checkTitleAndBody("t", "x".repeat(MR_BODY_MAX_BYTES + 1))).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
  });

  it("writes the merge message with approvers as trailers", () => {
    expect(
      mergeMessage({ number: 3, title: "T", source: "f", target: "main", approvers: ["vera"] }),
    ).toBe("Merge request #3: T\n\nMerge branch 'f' into 'main'\n\nApproved-by: vera\n");
  });
});
