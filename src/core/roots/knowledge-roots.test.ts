import { describe, expect, it } from "vitest";
import { parseConfig } from "../config/config.js";
import { listRoots, sameRootId } from "./knowledge-roots.js";

const FULL = [
  "[knowledge]",
  "primary = '~/notes'",
  "[knowledge.roots]",
  "work = 'D:/kb/work'",
  "[[knowledge.read_only]]",
  'id = "group"',
  "path = '/srv/group-kb'",
  "[[knowledge.read_only]]",
  'id = "Public"',
  "path = 'D:\\kb\\public'",
].join("\n");

describe("[knowledge] in lore.toml (knowledge roots, configuration)", () => {
  it("reads primary, named and read-only roots in order", () => {
    const { value, problems } = parseConfig(FULL);
    expect(problems).toEqual([]);
    expect(listRoots(value?.knowledge ?? {})).toEqual([
      { id: "primary", kind: "primary", path: "~/notes", writable: true },
      { id: "work", kind: "named", path: "D:/kb/work", writable: false },
      { id: "group", kind: "read_only", path: "/srv/group-kb", writable: false },
      { id: "Public", kind: "read_only", path: "D:\\kb\\public", writable: false },
    ]);
  });

  it("refuses duplicate ids in any case, naming the key and the line of the second", () => {
    const text = [
      "[knowledge.roots]",
      "Group = '/a'",
      "[[knowledge.read_only]]",
      'id = "public"',
      "path = '/p'",
      "[[knowledge.read_only]]",
      'id = "group"',
      "path = '/g'",
    ].join("\n");
    const { value, problems } = parseConfig(text);
    expect(value).toBeUndefined();
    expect(problems.map((p) => [p.key, p.line])).toEqual([["knowledge.read_only[1].id", 7]]);
    expect(problems[0]?.message.en).toBe(
      "root id “group” is used twice (ids are case-insensitive; first: “Group”)",
    );
  });

  it("refuses user and primary as ids of other roots", () => {
    const { problems } = parseConfig('[[knowledge.read_only]]\nid = "USER"\npath = "/x"\n');
    expect(problems[0]).toMatchObject({ key: "knowledge.read_only[0].id", line: 2 });
    expect(problems[0]?.message.en).toContain("reserved");
  });

  it("refuses a malformed id, an unknown key and a missing path with key and line", () => {
    expect(parseConfig("[knowledge.roots]\n'a b' = '/x'\n").problems[0]?.key).toBe(
      "knowledge.roots.a b",
    );
    const unknown = parseConfig('[[knowledge.read_only]]\nid = "g"\npth = "/x"\n').problems;
    expect(unknown.map((p) => [p.key, p.line])).toContainEqual(["knowledge.read_only.pth", 3]);
    expect(unknown.find((p) => p.key === "knowledge.read_only.pth")?.message.en).toContain(
      "nearest known is “path”",
    );
    const missing = parseConfig('[[knowledge.read_only]]\nid = "g"\n').problems;
    expect(missing[0]?.key).toBe("knowledge.read_only[0].path");
    expect(parseConfig("[knowledge]\nprimry = '/x'\n").problems[0]?.message.en).toContain(
      "“primary”",
    );
  });

  describe("case 1: Windows paths in TOML, one file at a time", () => {
    const file = (value: string) => `[[knowledge.read_only]]\nid = "group"\npath = ${value}\n`;
    const path = (value: string) => parseConfig(file(value)).value?.knowledge?.read_only?.[0]?.path;

    it("'C:\\Users\\kb\\notes' → C:\\Users\\kb\\notes", () => {
      expect(path("'C:\\Users\\kb\\notes'")).toBe("C:\\Users\\kb\\notes");
    });

    it('"C:\\\\Users\\\\kb\\\\notes" → C:\\Users\\kb\\notes', () => {
      expect(path('"C:\\\\Users\\\\kb\\\\notes"')).toBe("C:\\Users\\kb\\notes");
    });

    it('"C:\\Users\\kb\\notes" → a config error naming key and line, with the hint', () => {
      const { value, problems } = parseConfig(file('"C:\\Users\\kb\\notes"'));
      expect(value).toBeUndefined();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ key: "knowledge.read_only.path", line: 3 });
      expect(problems[0]?.message.en).toContain("use single quotes");
      expect(problems[0]?.message.en).toContain('"C:\\\\x"');
    });

    it('"C:\\temp\\new" (TAB and LF) → a config error: a path holds a control character', () => {
      const { value, problems } = parseConfig(file('"C:\\temp\\new"'));
      expect(value).toBeUndefined();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ key: "knowledge.read_only[0].path", line: 3 });
      expect(problems[0]?.message.en).toBe(
        "“knowledge.read_only[0].path” is a path holding a control character; use single quotes ('C:\\x') or double each backslash (\"C:\\\\x\")",
      );
    });
  });

  it("compares ids case-insensitively, user = primary", () => {
    expect(sameRootId("GROUP", "group")).toBe(true);
    expect(sameRootId("user", "Primary")).toBe(true);
    expect(sameRootId("group", "public")).toBe(false);
  });
});
