import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeDiagnostic } from "../../core/entry/diagnostic.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { getEntry } from "./get-entry.js";

const ID = "0190f5a4-3b2c-7d10-8a11-2b3c4d5e6f70";
const LINK = "0190f5a4-3b2d-7e21-9b22-3c4d5e6f7081";

let dir: string;
let index: EntryIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-get-"));
  index = openIndex(join(dir, "index.db"));
});
afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("getEntry", () => {
  it("returns the whole entry with body, contract, links and report, and counts a read", () => {
    const note = makeDiagnostic("unknown_mechanism", {
      path: "k/a.md",
      params: { mechanism: "on_path" },
    });
    index.putFile({
      repo: "repo",
      path: "k/a.md",
      blobSha: "b".repeat(40),
      parsed: {
        entry: {
          id: ID,
          contract: [
            { mechanism: "on_query", params: { words: ["deploy"] } },
            { mechanism: "on_path", params: { glob: "src/**" } },
          ],
          origin: "agent",
          links: [LINK],
          unknownKeys: {},
          body: "First paragraph.\n\nSecond one.\n",
        },
        summary: "First paragraph.",
        reachable: false,
        unmetMechanisms: ["on_path"],
      },
      diagnostics: [note],
    });
    const view = getEntry(index, ID, "ann", 42);
    expect(view).toMatchObject({
      id: ID,
      repo: "repo",
      path: "k/a.md",
      origin: "agent",
      links: [LINK],
      summary: "First paragraph.",
      body: "First paragraph.\n\nSecond one.\n",
      reachable: false,
      unmet_mechanisms: ["on_path"],
      diagnostics: [note],
    });
    expect(view.contract).toHaveLength(2);
    // the file form parses back to the same entry
    const again = parseEntry(view.text, { mode: "lenient" });
    expect(again.value?.entry.id).toBe(ID);
    expect(again.value?.entry.body).toBe(view.body);
    expect(index.stats("ann")).toMatchObject([{ entryId: ID, read: 1, firstReadAt: 42 }]);
  });

  it("finds an id written in upper case, as the parser holds ids in lower case", () => {
    index.putFile({
      repo: "repo",
      path: "k/b.md",
      blobSha: "c".repeat(40),
      parsed: {
        entry: { id: ID, contract: [], origin: "human", links: [], unknownKeys: {}, body: "B.\n" },
        summary: "B.",
        reachable: false,
        unmetMechanisms: [],
      },
      diagnostics: [],
    });
    expect(getEntry(index, ID.toUpperCase(), "ann").id).toBe(ID);
    expect(getEntry(index, ` ${ID} `, "ann").id).toBe(ID);
  });

  it("refuses an unknown id with entry_not_found and counts nothing", () => {
    expect(() => getEntry(index, ID, "ann")).toThrow(LoreError);
    try {
      getEntry(index, ID, "ann");
    } catch (error) {
      expect((error as LoreError).code).toBe("entry_not_found");
      expect((error as LoreError).message).toContain(ID);
    }
    expect(index.stats()).toEqual([]);
  });
});
