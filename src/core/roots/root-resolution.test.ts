import { describe, expect, it } from "vitest";
import type { KnowledgeRoot } from "./knowledge-roots.js";
import { comparablePath, requireWritable, resolveRoot } from "./root-resolution.js";

const roots: KnowledgeRoot[] = [
  { id: "primary", kind: "primary", path: "/home/anna/notes", writable: true },
  { id: "Work", kind: "named", path: "D:\\kb\\work", writable: false },
  { id: "group", kind: "read_only", path: "/srv/group-kb", writable: false },
];

describe("resolveRoot (knowledge roots, resolution and access)", () => {
  it("gives primary with no argument, and for user / primary in any case", () => {
    expect(resolveRoot(roots, {}).id).toBe("primary");
    expect(resolveRoot(roots, { knowledge_root_id: "USER" }).id).toBe("primary");
    expect(resolveRoot(roots, { knowledge_root_id: "Primary" }).id).toBe("primary");
  });

  it("finds named and read-only roots case-insensitively", () => {
    expect(resolveRoot(roots, { knowledge_root_id: "GROUP" })).toBe(roots[2]);
    expect(resolveRoot(roots, { knowledge_root_id: "work" })).toBe(roots[1]);
  });

  it("refuses both arguments with root_args_conflict", () => {
    expect(() =>
      resolveRoot(roots, { knowledge_root_id: "group", knowledge_path: "/srv/group-kb" }),
    ).toThrow(expect.objectContaining({ code: "root_args_conflict" }));
  });

  it("refuses an unknown id, listing the known ones", () => {
    expect(() => resolveRoot(roots, { knowledge_root_id: "team" })).toThrow(
      expect.objectContaining({
        code: "unknown_root",
        message: "no knowledge root with id “team”; configured: primary, Work, group",
      }),
    );
  });

  it("says when no primary is configured", () => {
    expect(() => resolveRoot([roots[2] as KnowledgeRoot], {})).toThrow(
      expect.objectContaining({ code: "no_primary_root" }),
    );
  });

  it("matches knowledge_path to a configured root, Windows paths in either style", () => {
    expect(resolveRoot(roots, { knowledge_path: "/srv/group-kb/" })).toBe(roots[2]);
    expect(resolveRoot(roots, { knowledge_path: "d:/kb/work" })).toBe(roots[1]);
    expect(resolveRoot(roots, { knowledge_path: "D:\\kb\\work\\" })).toBe(roots[1]);
    expect(comparablePath("D:\\x\\y")).toBe("d:/x/y");
  });

  it("reads an unconfigured knowledge_path read-only, unless refused (HTTP)", () => {
    expect(resolveRoot(roots, { knowledge_path: "/elsewhere" })).toEqual({
      id: "path",
      kind: "named",
      path: "/elsewhere",
      writable: false,
    });
    expect(() =>
      resolveRoot(roots, { knowledge_path: "/elsewhere" }, { allowUnconfiguredPath: false }),
    ).toThrow(expect.objectContaining({ code: "root_not_configured" }));
    expect(() => resolveRoot(roots, { knowledge_path: "relative/x" })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
  });

  it("refuses writes to any root but primary, naming the root", () => {
    expect(() => requireWritable(roots[0] as KnowledgeRoot)).not.toThrow();
    expect(() => requireWritable(roots[2] as KnowledgeRoot)).toThrow(
      expect.objectContaining({
        code: "read_only_root",
        data: { root: "group", kind: "read_only" },
      }),
    );
  });
});
