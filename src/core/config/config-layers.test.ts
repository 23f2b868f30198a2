import { describe, expect, it } from "vitest";
import { type IgnoredKey, ignoredKeysNotice } from "./config-layers.js";

const key = (name: string, reason: IgnoredKey["reason"]): IgnoredKey => ({
  key: name,
  value: "x",
  file: "/p/lore.toml",
  reason,
});

describe("the notice about ignored keys of a project file", () => {
  it("agrees with the number of keys, in English and Russian", () => {
    const one = ignoredKeysNotice([key("server.port", "untrusted")]).text;
    expect(one.en).toBe(
      "/p/lore.toml sets server.port, which a project file may set only in a trusted folder; ignored (to use it: lore trust /p)",
    );
    expect(one.ru).toBe(
      "/p/lore.toml задаёт server.port — файл проекта может задавать этот ключ только в доверенной папке; пропущен (чтобы применить: lore trust /p)",
    );
    const two = ignoredKeysNotice([key("server.port", "untrusted"), key("user", "untrusted")]).text;
    expect(two.en).toContain("sets server.port, user, which");
    expect(two.en).toContain("(to use them: lore trust /p)");
    expect(two.ru).toContain("задавать эти ключи только в доверенной папке; пропущены");
  });

  it("a key leading outside the project folder: singular for one", () => {
    const one = ignoredKeysNotice([key("index.repos", "outside_project")]).text;
    expect(one.en).toBe(
      "/p/lore.toml: index.repos leads outside the project folder; ignored (to use it: lore trust /p)",
    );
    expect(one.ru).toBe(
      "/p/lore.toml: index.repos ведёт за пределы папки проекта; пропущен (чтобы применить: lore trust /p)",
    );
  });
});
