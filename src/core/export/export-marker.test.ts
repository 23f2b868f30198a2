import { describe, expect, it } from "vitest";
import { A, item } from "./export.test-helpers.js";
import { entryMetaLine, readEntryMetaLine } from "./export-marker.js";

describe("the entry meta comment", () => {
  it("keeps the meta in a comment no value can close, and reads it back", () => {
    const entry = item(A, "x.md", {
      summary: "closes --> here & <b>",
      contract: [{ mechanism: "on_query", params: { words: ["-->", "a&b"] } }],
    }).entry;
    const line = entryMetaLine(entry);
    expect(line.indexOf("-->")).toBe(line.length - 3);
    const meta = readEntryMetaLine(line);
    expect(meta).toEqual({
      id: A,
      origin: "human",
      contract: entry.contract,
      links: [],
      summary: "closes --> here & <b>",
    });
    expect(readEntryMetaLine("<!-- lore:entry {bad -->")).toHaveProperty("error");
    expect(readEntryMetaLine('<!-- lore:entry {"id":"nope"} -->')).toHaveProperty("error");
    expect(readEntryMetaLine(`<!-- lore:entry {"id":"${A}","origin":"human"}`)).toHaveProperty(
      "error",
    );
  });
});
