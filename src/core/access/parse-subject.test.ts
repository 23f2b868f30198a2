import { describe, expect, it } from "vitest";
import { formatSubjectName, parseAccessLevel, parseSubjectName } from "./parse-subject.js";

describe("parseSubjectName and parseAccessLevel", () => {
  it("reads users and group:NAME and writes them back", () => {
    expect(parseSubjectName("anna")).toEqual({ kind: "user", name: "anna" });
    expect(parseSubjectName("group:leads")).toEqual({ kind: "group", name: "leads" });
    expect(formatSubjectName(parseSubjectName("group:leads"))).toBe("group:leads");
    expect(() => parseSubjectName("group:")).toThrow("name a user (anna) or a group (group:leads)");
  });

  it("reads the three levels and names the nearest for a typo", () => {
    expect(["read", "write", "admin"].map(parseAccessLevel)).toEqual(["read", "write", "admin"]);
    expect(() => parseAccessLevel("wrte")).toThrow(
      'invalid input: unknown access level "wrte"; did you mean write? levels: read, write, admin',
    );
    expect(() => parseAccessLevel("owner")).toThrow(
      'unknown access level "owner"; levels: read, write, admin',
    );
  });
});
