import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KnowledgeRoot } from "../../core/roots/knowledge-roots.js";
import type { RootsContext } from "./knowledge-files.js";
import { rootsStatus } from "./roots-status.js";
import { PREVIEW_CHARS, routeContext } from "./route-context.js";

let tmp: string;
let ctx: RootsContext;
const LONG = `# Smoke test\n${"group smoke body ".repeat(60)}`;

function put(path: string, text: string): void {
  mkdirSync(dirname(join(tmp, path)), { recursive: true });
  writeFileSync(join(tmp, path), text);
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "lore-route-"));
  put(
    "notes/agent-notes.md",
    "# notes\n\n## Releases\nОткат релиза — helm rollback.\n\n## knowledge-roots-routing-v1\nCheck the registry; read group files with knowledge_root_id=group.\n",
  );
  put(
    "notes/knowledge/work/local/knowledge-roots-index-v1.md",
    "# registry\ngroup/smoke-test-v1.md => group\nplaybooks/ => group\nbad => line => here\n",
  );
  put("group/knowledge/group/smoke-test-v1.md", LONG);
  const roots: KnowledgeRoot[] = [
    { id: "primary", kind: "primary", path: join(tmp, "notes"), writable: true },
    { id: "group", kind: "read_only", path: join(tmp, "group"), writable: false },
    { id: "public", kind: "read_only", path: join(tmp, "public-missing"), writable: false },
  ];
  ctx = { roots };
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("routeContext (knowledge roots, seed 003)", () => {
  it("applies the overlay for a query matching a registry line, with a preview from group", async () => {
    const answer = await routeContext(ctx, "how do I run the smoke test");
    expect(answer.knowledge_roots_overlay_applied).toBe(true);
    expect(answer.overlay?.routing_section).toContain("## knowledge-roots-routing-v1");
    expect(answer.overlay?.registry_lines).toEqual([
      {
        line: 2,
        text: "group/smoke-test-v1.md => group",
        path: "group/smoke-test-v1.md",
        prefix: false,
        root: "group",
      },
    ]);
    expect(answer.overlay?.previews).toEqual([
      { root: "group", file_path: "group/smoke-test-v1.md", preview: LONG.slice(0, PREVIEW_CHARS) },
    ]);
  });

  it("applies the overlay for a query about roots, listing the lines of a named root", async () => {
    const answer = await routeContext(ctx, "what lives in group?");
    expect(answer.knowledge_roots_overlay_applied).toBe(true);
    expect(answer.overlay?.registry_lines.map((l) => l.line)).toEqual([2, 3]);
  });

  it("does not apply it for an unrelated query; hot sections match word forms", async () => {
    const answer = await routeContext(ctx, "как откатить релизы");
    expect(answer.knowledge_roots_overlay_applied).toBe(false);
    expect(answer.overlay).toBeUndefined();
    expect(answer.sections.map((s) => s.heading)).toEqual(["Releases"]);
  });

  it("refuses an empty query", async () => {
    await expect(routeContext(ctx, "  ")).rejects.toMatchObject({ code: "empty_query" });
  });
});

describe("rootsStatus (knowledge roots, seed 003)", () => {
  it("lists roots with kind, existence, writability, file count; a missing one is reported", async () => {
    const status = await rootsStatus(ctx.roots);
    expect(status.roots.map((r) => [r.id, r.kind, r.exists, r.writable, r.file_count])).toEqual([
      ["primary", "primary", true, true, 1],
      ["group", "read_only", true, false, 1],
      ["public", "read_only", false, false, 0],
    ]);
    expect(status.read_only_routing_enabled).toBe(true);
    expect(status.registry).toMatchObject({ exists: true, entries: 2 });
    expect(status.registry.malformed[0]).toMatch(
      /knowledge-roots-index-v1\.md:4: .*\[registry_line_malformed\]/,
    );
    expect((await rootsStatus([ctx.roots[0] as KnowledgeRoot])).read_only_routing_enabled).toBe(
      false,
    );
  });
});
