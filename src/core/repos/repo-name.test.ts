import { describe, expect, it } from "vitest";
import type { LoreError } from "../errors/lore-error.js";
import {
  accountNameFrom,
  parseRepoName,
  validateAccountName,
  validateBranchName,
} from "./repo-name.js";

function refusal(run: () => unknown): LoreError {
  try {
    run();
  } catch (error) {
    return error as LoreError;
  }
  throw new Error("expected a refusal");
}

describe("parseRepoName", () => {
  it("splits a valid owner/name", () => {
    expect(parseRepoName("acme/app")).toEqual({ owner: "acme", name: "app", fullName: "acme/app" });
    expect(parseRepoName("a.b_c-d/x9.y").fullName).toBe("a.b_c-d/x9.y");
    expect(parseRepoName(`${"o".repeat(100)}/${"n".repeat(100)}`).owner.length).toBe(100);
  });

  it.each([
    ["acme/-rf", "a part may not start with “-” or “.”"],
    ["-rf/app", "a part may not start with “-” or “.”"],
    ["acme/..", "a part may not start with “-” or “.”"],
    ["acme/a..b", "“..” is not allowed"],
    ["acme/%2e%2e", "only a-z, 0-9, “.”, “_” and “-” are allowed"],
    ["a/b/c", "give it as owner/name, with exactly one “/” (e.g. acme/app)"],
    ["app", "give it as owner/name, with exactly one “/” (e.g. acme/app)"],
    ["acme/", "a part is empty"],
    ["acme/app.git", "leave out “.git” (the server adds it): acme/app"],
    ["Acme/App", "upper case is not allowed; write it lower-case: acme/app"],
    ["acme/ap p", "only a-z, 0-9, “.”, “_” and “-” are allowed"],
    ["acme/ёжик", "only a-z, 0-9, “.”, “_” and “-” are allowed"],
    [`acme/${"n".repeat(101)}`, "is over 100 characters"],
  ])("refuses %s: %s", (name, reason) => {
    const error = refusal(() => parseRepoName(name));
    expect(error.code).toBe("invalid_repo_name");
    expect(error.kind).toBe("invalid_input");
    expect(error.message).toContain(reason);
    expect(error.message.startsWith(`${JSON.stringify(name.slice(0, 120))}`)).toBe(true);
    expect(error.text.ru).toContain("не годится в имя репозитория");
    expect(error.data.name).toBe(name);
  });

  it("says the reason in Russian too", () => {
    expect(refusal(() => parseRepoName("acme/-rf")).text.ru).toBe(
      '"acme/-rf" не годится в имя репозитория: часть не может начинаться с «-» или «.»',
    );
  });
});

describe("validateAccountName", () => {
  it("accepts and refuses user and group names with the same alphabet", () => {
    expect(validateAccountName("anna", "user")).toBe("anna");
    expect(validateAccountName("team.leads_1", "group")).toBe("team.leads_1");
    const error = refusal(() => validateAccountName("-rf", "user"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      'invalid input: user name "-rf" is refused: a part may not start with “-” or “.”',
    );
    expect(refusal(() => validateAccountName("Anna", "user")).message).toContain(
      "lower-case: anna",
    );
    expect(refusal(() => validateAccountName("group:x", "group")).text.ru).toContain("имя группы");
    expect(refusal(() => validateAccountName("a/b", "user")).code).toBe("invalid_input");
  });
});

describe("validateBranchName", () => {
  it("accepts ordinary branch names and refuses what git would or what could be an option", () => {
    for (const ok of ["main", "trunk", "release/1.0", "feature/x-y_z"]) {
      expect(validateBranchName(ok)).toBe(ok);
    }
    for (const bad of [
      "",
      "-x",
      "a..b",
      "a b",
      "a:b",
      "x.lock",
      ".hidden",
      "a/",
      "@",
      "a@{1}",
      "HEAD",
      "refs/heads/x",
    ]) {
      expect(refusal(() => validateBranchName(bad)).code).toBe("invalid_input");
    }
  });
});

describe("accountNameFrom", () => {
  it("makes a valid user name of an OS user name", () => {
    expect(accountNameFrom("anna")).toBe("anna");
    expect(accountNameFrom("Anna Smith")).toBe("anna-smith");
    expect(accountNameFrom("-root..x")).toBe("root.x");
    expect(accountNameFrom("Σ")).toBe("admin");
    expect(accountNameFrom("")).toBe("admin");
    expect(accountNameFrom("x".repeat(300)).length).toBe(100);
    for (const raw of ["DOMAIN\\user", "..", "a/b", "ёжик"]) {
      expect(validateAccountName(accountNameFrom(raw), "user")).toBe(accountNameFrom(raw));
    }
  });
});
