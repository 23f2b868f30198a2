import { describe, expect, it } from "vitest";
import { parseConfig } from "./config.js";
import { tomlPathString } from "./toml-path.js";

describe("tomlPathString (knowledge roots: paths go out as literal strings)", () => {
  it.each([
    ["C:\\Users\\kb\\notes", "'C:\\Users\\kb\\notes'"],
    ["/home/anna/notes", "'/home/anna/notes'"],
    ["/tmp/it's", '"/tmp/it\'s"'],
    ["C:\\a\"b'c", '"C:\\\\a\\"b\'c"'],
  ])("writes %j as %s and reads it back", (path, written) => {
    expect(tomlPathString(path)).toBe(written);
    const back = parseConfig(`[knowledge]\nprimary = ${tomlPathString(path)}\n`);
    expect(back.value?.knowledge?.primary).toBe(path);
  });
});
