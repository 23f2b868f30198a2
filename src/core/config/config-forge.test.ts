import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";

describe("config: [forge], [wiki], [projects], machine (federation, seeds 000 and 001)", () => {
  it("accepts the federation keys", () => {
    const text = [
      'machine = "laptop"',
      "[forge]",
      'kind = "gitea"',
      'url = "https://git.example.com"',
      'user = "alice"',
      "[wiki]",
      'shared = "~/projects-wiki"',
      "[projects]",
      'cache = "/tmp/cache.json"',
    ].join("\n");
    expect(parseConfig(text)).toEqual({
      value: {
        machine: "laptop",
        forge: { kind: "gitea", url: "https://git.example.com", user: "alice" },
        wiki: { shared: "~/projects-wiki" },
        projects: { cache: "/tmp/cache.json" },
      },
      problems: [],
    });
    expect(parseConfig('[forge]\nkind = "local"\nroot = "repos"\n').value?.forge).toEqual({
      kind: "local",
      root: "repos",
    });
  });

  it("names the key of a wrong value or an unknown key", () => {
    expect(parseConfig('[forge]\nkind = "github"\n').problems[0]?.key).toBe("forge.kind");
    expect(parseConfig('[forge]\nurl = "git.example.com"\n').problems[0]?.key).toBe("forge.url");
    const unknown = parseConfig('[forge]\nroots = "x"\n').problems[0];
    expect(unknown?.message.en).toContain("root");
  });
});
