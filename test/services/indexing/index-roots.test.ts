/**
 * The roots indexer skips the templates Lore writes into a root (seed 003 "Шаблоны в
 * каноне"): `lore init --notes`'s examples (`*.example.md`) and the README of `work/local`
 * (its template mark) are never notes, so recall never returns them; a user's own notes
 * beside them are indexed.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  HOT_SECTION_EXAMPLE_PATH,
  hotSectionExample,
  REGISTRY_EXAMPLE,
  REGISTRY_EXAMPLE_PATH,
  WORK_LOCAL_README_PATH,
  workLocalReadme,
} from "../../../src/cli/notes-templates.js";
import type { KnowledgeRoot } from "../../../src/core/roots/knowledge-roots.js";
import { TEMPLATE_MARK } from "../../../src/core/roots/lore-templates.js";
import { type EntryIndex, openIndex } from "../../../src/index/entry-index.js";
import { toolNames } from "../../../src/mcp/tool-names.js";
import { indexRoots } from "../../../src/services/indexing/index-roots.js";
import { recall } from "../../../src/services/knowledge/recall.js";

let tmp: string;
let index: EntryIndex;
let roots: KnowledgeRoot[];

async function put(path: string, text: string): Promise<void> {
  const file = join(tmp, "notes", ...path.split("/"));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "lore-index-roots-"));
  index = openIndex(join(tmp, "index.db"));
  roots = [{ id: "primary", kind: "primary", path: join(tmp, "notes"), writable: true }];
  const names = toolNames();
  await put(REGISTRY_EXAMPLE_PATH, REGISTRY_EXAMPLE);
  await put(HOT_SECTION_EXAMPLE_PATH, hotSectionExample(names));
  await put(WORK_LOCAL_README_PATH, workLocalReadme(names));
  await put("knowledge/registry-howto.md", "# Registry\n\nHow I copy the roots registry.\n");
});
afterEach(async () => {
  index.close();
  await rm(tmp, { recursive: true, force: true });
});

const paths = (query: string) => recall(index, { query, user: "t" }).hits.map((hit) => hit.path);

describe("indexRoots and the templates Lore writes", () => {
  it("skips the examples and the marked README of lore init --notes; indexes the user's note", async () => {
    const [run] = await indexRoots(index, roots);
    expect(run).toMatchObject({ exists: true, entries: 0, notes: 1 });
    expect([...index.listFiles("root:primary").keys()]).toEqual(["registry-howto.md"]);
    expect(paths("knowledge roots registry copy")).toEqual(["registry-howto.md"]);
    expect(paths("machine-local routing files")).toEqual([]);
  });

  it("a template stored before is dropped; deleting the mark makes the README a note", async () => {
    const readme = workLocalReadme(toolNames());
    await put(WORK_LOCAL_README_PATH, readme.replace(`${TEMPLATE_MARK}\n`, ""));
    await indexRoots(index, roots);
    expect(paths("machine-local routing files")).toEqual(["work/local/README.md"]);
    await put(WORK_LOCAL_README_PATH, readme);
    const [run] = await indexRoots(index, roots);
    expect(run?.removed).toBe(1);
    expect(paths("machine-local routing files")).toEqual([]);
  });

  it("an example is skipped by its name in any case; a byte order mark before the mark is allowed", async () => {
    await put("knowledge/Team.EXAMPLE.md", "# Team example\n\nmachine-local routing files\n");
    await put("knowledge/bom.md", `\uFEFF${TEMPLATE_MARK}\nmachine-local routing files\n`);
    await indexRoots(index, roots);
    expect([...index.listFiles("root:primary").keys()]).toEqual(["registry-howto.md"]);
  });
});
