import { describe, expect, it } from "vitest";
import { formatConfigProblem, parseConfig } from "./config.js";

describe("parseConfig", () => {
  it("reads every known key", () => {
    const text = [
      'user = "anna"',
      'lang = "ru"',
      "[index]",
      "database = '/var/lore/index.db'",
      'repos = ["~/src/app", "../lib"]',
      "[server]",
      'host = "0.0.0.0"',
      "port = 8080",
      "",
    ].join("\n");
    expect(parseConfig(text)).toEqual({
      value: {
        user: "anna",
        lang: "ru",
        index: { database: "/var/lore/index.db", repos: ["~/src/app", "../lib"] },
        server: { host: "0.0.0.0", port: 8080 },
      },
      problems: [],
    });
  });

  it("accepts an empty file", () => {
    expect(parseConfig("")).toEqual({ value: {}, problems: [] });
  });

  it("accepts the [knowledge] table of seed 003 without interpreting it", () => {
    const text = [
      "[knowledge]",
      "primary = '~/notes'",
      "[knowledge.roots]",
      "work = 'D:/kb/work'",
      "[[knowledge.read_only]]",
      'id = "group"',
      "path = '/srv/group'",
    ].join("\n");
    const result = parseConfig(text);
    expect(result.problems).toEqual([]);
    expect(result.value?.knowledge).toEqual({
      primary: "~/notes",
      roots: { work: "D:/kb/work" },
      read_only: [{ id: "group", path: "/srv/group" }],
    });
  });

  it("names an unknown key with its line and the nearest known key", () => {
    const text = ['user = "anna"', "", "[server]", 'host = "::1"', "prot = 80"].join("\n");
    const { value, problems } = parseConfig(text);
    expect(value).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: "server.prot", line: 5, column: 1 });
    expect(problems[0]?.message.en).toBe(
      "key “server.prot” is not known, the nearest known is “port”",
    );
    const [first] = problems;
    if (!first) throw new Error("no problem");
    expect(formatConfigProblem(first, "en", "/x/lore.toml")).toBe(
      "/x/lore.toml:5: key “server.prot” is not known, the nearest known is “port” (key server.prot)",
    );
    expect(problems[0]?.message.ru).toBe(
      "ключ „server.prot“ не известен, ближайший известный — „port“",
    );
  });

  it("says when no known key is near", () => {
    const { problems } = parseConfig('[sever]\nhost = "x"\n[index]\ncolour = "red"\n');
    expect(problems.map((p) => [p.key, p.line, p.message.en])).toEqual([
      ["sever", 1, "key “sever” is not known, the nearest known is “server”"],
      ["index.colour", 4, "key “index.colour” is not known, and no known key is near it"],
    ]);
  });

  it("reports wrong types and ranges with key and line", () => {
    const text = ["lang = 'de'", "[server]", 'port = "7377"', "[index]", "repos = 'one'"].join(
      "\n",
    );
    const { problems } = parseConfig(text);
    expect(problems.map((p) => [p.key, p.line, p.message.en])).toEqual([
      ["lang", 1, "“lang” must be one of: en, ru"],
      ["server.port", 3, "“server.port” must be a number"],
      ["index.repos", 5, "“index.repos” must be a list"],
    ]);
    const range = parseConfig("[server]\nport = 70000\n").problems[0];
    expect(range).toMatchObject({ key: "server.port", line: 2 });
    expect(range?.message.en).toBe("“server.port” must be a whole number from 0 to 65535");
    // Each key names its own range.
    const timeout = parseConfig("[server]\ngit_timeout_ms = 10\n").problems[0];
    expect(timeout?.message.en).toBe(
      "“server.git_timeout_ms” must be a whole number from 1000 to 86400000",
    );
    const budget = parseConfig("[hooks]\nbudget_ms = 5\n").problems[0];
    expect(budget?.message.ru).toBe("«hooks.budget_ms» должен быть целым числом от 10 до 60000");
  });

  it("finds keys written as dotted keys and inside multi-line arrays", () => {
    const text = ["index.repos = [", '  "a",', '  "b",', "]", "server.port = -1"].join("\n");
    const { problems } = parseConfig(text);
    expect(problems.map((p) => [p.key, p.line])).toEqual([["server.port", 5]]);
  });

  it("reports TOML syntax errors with line, column and key", () => {
    const { problems } = parseConfig('user = "anna"\n[index]\ndatabase = "/a\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: "index.database", line: 3 });
    expect(problems[0]?.message.en).toMatch(/^TOML syntax: /);
  });

  it("hints at quoting for a Windows path in double quotes (knowledge roots: TOML paths)", () => {
    const { problems } = parseConfig('[index]\ndatabase = "C:\\Users\\kb\\index.db"\n');
    expect(problems[0]).toMatchObject({ key: "index.database", line: 2 });
    expect(problems[0]?.message.en).toContain("use single quotes");
  });

  it("refuses a path that holds control characters (knowledge roots: TOML paths)", () => {
    const { problems } = parseConfig('[index]\ndatabase = "C:\\temp\\new"\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ key: "index.database", line: 2 });
    expect(problems[0]?.message.en).toBe(
      "“index.database” is a path holding a control character; use single quotes ('C:\\x') or double each backslash (\"C:\\\\x\")",
    );
  });

  it("reads Windows paths in single quotes and doubled backslashes", () => {
    expect(parseConfig("[index]\ndatabase = 'C:\\Users\\kb\\i.db'\n").value?.index?.database).toBe(
      "C:\\Users\\kb\\i.db",
    );
    expect(
      parseConfig('[index]\ndatabase = "C:\\\\Users\\\\kb\\\\i.db"\n').value?.index?.database,
    ).toBe("C:\\Users\\kb\\i.db");
  });
});
