import { describe, expect, it } from "vitest";
import { type ContextHit, hitsContext, sessionNote } from "./context-text.js";

const hit = (i: number, summary = `Summary number ${i}`): ContextHit => ({
  id: `0190f5a4-0000-7000-8000-${String(i).padStart(12, "0")}`,
  kind: "entry",
  summary,
  source: "acme/web",
  path: `.gitriver/knowledge/e${i}.md`,
  why: [{ kind: "on_query", word: "deploy" }, { kind: "text" }],
});

describe("hitsContext", () => {
  it("lists each hit with summary, id, source and why, and says how to open one", () => {
    const text = hitsContext([hit(1)], {
      trigger: { kind: "prompt" },
      openTool: "knowledge_open",
      total: 1,
    });
    expect(text).toContain("lore get <id>");
    expect(text).toContain("knowledge_open");
    expect(text).toContain(
      '- Summary number 1 [id 0190f5a4-0000-7000-8000-000000000001; entry acme/web .gitriver/knowledge/e1.md; why: on_query "deploy", text]',
    );
  });

  it("stays under the byte budget and says how many were left out", () => {
    const hits = Array.from({ length: 40 }, (_, i) => hit(i, "word ".repeat(100)));
    const text = hitsContext(hits, {
      trigger: { kind: "tool", tool: "Bash" },
      openTool: "o",
      total: 57,
      budgetBytes: 2048,
    });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
    expect(text).toContain("before the call of Bash");
    const shown = text.split("\n").filter((l) => l.startsWith("- ")).length;
    expect(shown).toBeGreaterThan(0);
    expect(text).toContain(`(${57 - shown} more match;`);
  });

  it("marks drafts as unverified and is empty for no hit", () => {
    const draft = { ...hit(2), draft: true as const, branch: "feat/x" };
    expect(
      hitsContext([draft], { trigger: { kind: "prompt" }, openTool: "o", total: 1 }),
    ).toContain("unverified draft of branch feat/x");
    expect(hitsContext([], { trigger: { kind: "prompt" }, openTool: "o", total: 0 })).toBe("");
  });
});

describe("sessionNote", () => {
  it("says the project's entries, drafts waiting, the index and the roots", () => {
    const note = sessionNote(
      {
        repo: "acme/web",
        entries: 12,
        draftsWaiting: 2,
        sources: 3,
        totalEntries: 40,
        roots: ["group"],
      },
      "knowledge_recall",
      "knowledge_open",
    );
    expect(note).toContain(
      "This project (acme/web) holds 12 knowledge entries and 2 drafts waiting",
    );
    expect(note).toContain("40 entries in 3 sources; knowledge roots: group.");
    expect(
      sessionNote(
        { entries: 0, draftsWaiting: 0, sources: 0, totalEntries: 0, roots: [] },
        "r",
        "o",
      ),
    ).toContain("not in Lore's index yet");
  });
});
