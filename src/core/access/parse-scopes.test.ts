import { describe, expect, it } from "vitest";
import type { LoreError } from "../errors/lore-error.js";
import { parseScopes } from "./parse-scopes.js";

function refusal(run: () => unknown): LoreError {
  try {
    run();
  } catch (error) {
    return error as LoreError;
  }
  throw new Error("expected a refusal");
}

describe("parseScopes", () => {
  it("reads the issue's list in the canonical order, once each", () => {
    expect(parseScopes("knowledge:read,knowledge:write,repo:read,repo:write")).toEqual([
      "knowledge:read",
      "knowledge:write",
      "repo:read",
      "repo:write",
    ]);
    expect(parseScopes(" repo:write , knowledge:read,repo:write")).toEqual([
      "knowledge:read",
      "repo:write",
    ]);
    expect(parseScopes("admin")).toEqual(["admin"]);
  });

  it("names the nearest known scope for a typo", () => {
    const error = refusal(() => parseScopes("knowlege:read,repo:write"));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toBe(
      'invalid input: unknown scope "knowlege:read"; did you mean knowledge:read? known scopes: knowledge:read, knowledge:write, repo:read, repo:write, admin',
    );
    expect(error.text.ru).toContain("может быть, knowledge:read?");
  });

  it("refuses an unknown scope with nothing near, and an empty list", () => {
    expect(refusal(() => parseScopes("everything")).message).not.toContain("did you mean");
    expect(refusal(() => parseScopes(" , ")).message).toContain("no scopes given");
  });
});
