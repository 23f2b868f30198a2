import { describe, expect, it } from "vitest";
import { checkKnowledgePath, requireKnowledgePath } from "./knowledge-path.js";

describe("checkKnowledgePath (knowledge roots, path safety)", () => {
  it("cleans relative paths", () => {
    expect(checkKnowledgePath("group/smoke-test-v1.md")).toEqual({
      ok: true,
      path: "group/smoke-test-v1.md",
    });
    expect(checkKnowledgePath("./a//b\\c.md")).toEqual({ ok: true, path: "a/b/c.md" });
  });

  it.each([
    ["", "empty"],
    ["./", "empty"],
    ["a\u0000b.md", "nul_byte"],
    ["/etc/passwd", "absolute"],
    ["\\\\server\\share\\x.md", "absolute"],
    ["C:\\Windows\\x.md", "drive_letter"],
    ["D:/kb/x.md", "drive_letter"],
    ["c:x.md", "drive_letter"],
    ["../x.md", "parent_segment"],
    ["a/../../x.md", "parent_segment"],
    ["a\\..\\x.md", "parent_segment"],
  ])("refuses %j (%s)", (path, reason) => {
    expect(checkKnowledgePath(path)).toEqual({ ok: false, reason });
  });

  it("throws path_outside_root naming the root", () => {
    expect(() => requireKnowledgePath("../x", "group")).toThrow(
      expect.objectContaining({
        code: "path_outside_root",
        data: { file_path: "../x", root: "group", reason: "parent_segment" },
      }),
    );
  });
});
