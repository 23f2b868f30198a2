import { describe, expect, it } from "vitest";
import { LIMITS } from "../entry/entry.js";
import { parseEntry } from "../entry/parse-entry.js";
import { utf8ByteLength } from "../entry/utf8.js";
import { LoreError } from "../errors/lore-error.js";
import { buildDraft } from "./build-draft.js";
import type { DraftInput } from "./draft.js";

const ID = "0190f5a4-3b2c-7d10-8a11-000000000001";
const mint = () => ID;

function refusal(fn: () => unknown): LoreError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LoreError) return error;
    throw error;
  }
  throw new Error("not refused");
}

/** A field-form draft whose future file is exactly `bytes` bytes of UTF-8. */
function draftOfSize(bytes: number): DraftInput {
  const base = { branch: "feature/x", title: "Retry the flaky upload", words: ["upload"] };
  const probe = buildDraft({ ...base, body: "a" }, mint);
  return { ...base, body: "a".repeat(1 + bytes - probe.size) };
}

describe("buildDraft", () => {
  it("builds an entry from fields: title first, then the body, contract, links, origin agent", () => {
    const link = "0190f5a4-3b2c-7d10-8a11-0000000000aa";
    const built = buildDraft(
      {
        branch: "feature/x",
        title: "The upload needs a retry",
        body: "Why: the CDN drops the first request.",
        words: ["upload", "retry"],
        tool: "curl",
        links: [link.toUpperCase()],
      },
      mint,
    );
    expect(built.id).toBe(ID);
    expect(built.branch).toBe("feature/x");
    expect(built.text).toBe(
      [
        "---",
        `id: ${ID}`,
        "origin: agent",
        "contract:",
        "  - mechanism: on_query",
        "    params:",
        "      words:",
        "        - upload",
        "        - retry",
        "  - mechanism: on_tool",
        "    params:",
        "      name: curl",
        "links:",
        `  - ${link}`,
        "---",
        "",
        "The upload needs a retry",
        "",
        "Why: the CDN drops the first request.",
        "",
      ].join("\n"),
    );
    expect(built.parsed.summary).toBe("The upload needs a retry");
    expect(built.size).toBe(utf8ByteLength(built.text));
  });

  it("assigns an id to a whole file written without one, origin defaulting to agent", () => {
    const built = buildDraft(
      {
        branch: "main",
        text: "---\ncontract:\n  - mechanism: on_query\n    params: {words: [deploy]}\n---\n\nDeploy on Fridays is off.\n",
      },
      mint,
    );
    expect(built.id).toBe(ID);
    expect(built.parsed.entry.origin).toBe("agent");
    expect(built.text.startsWith(`---\nid: ${ID}\norigin: agent\n`)).toBe(true);
    // The stored text parses strictly to the same entry (it is what delivery writes).
    expect(parseEntry(built.text, { mode: "strict" }).value?.entry).toEqual(built.parsed.entry);
  });

  it("keeps an id the file gives, in lower case, and its origin", () => {
    const built = buildDraft(
      {
        branch: "main",
        text: `---\nid: ${ID.toUpperCase()}\norigin: human\ncontract: []\n---\n\nA note.\n`,
      },
      () => "0190f5a4-3b2c-7d10-8a11-0000000000ff",
    );
    expect(built.id).toBe(ID);
    expect(built.parsed.entry.origin).toBe("human");
  });

  it("refuses an unknown key naming the nearest known one", () => {
    const error = refusal(() =>
      buildDraft({ branch: "main", text: "---\nsumary: x\ncontract: []\n---\n\nBody.\n" }, mint),
    );
    expect(error.code).toBe("invalid_entry");
    expect(error.message).toContain("“summary”");
    const diagnostics = error.data.diagnostics as { code: string; params: { nearest?: string } }[];
    expect(diagnostics.map((d) => [d.code, d.params.nearest])).toEqual([
      ["unknown_key", "summary"],
    ]);
  });

  it("refuses a wrong value of a known field", () => {
    for (const input of [
      { branch: "main", title: "T", body: "B", words: [] },
      { branch: "main", title: "T", body: "B", tool: " " },
      { branch: "main", title: "T", body: "B", links: ["not-an-id"] },
      { branch: "main", text: "---\nid: 42\n---\n\nBody.\n" },
      { branch: "main", text: "---\norigin: robot\n---\n\nBody.\n" },
      { branch: "main", text: "no frontmatter" },
    ] as DraftInput[]) {
      const error = refusal(() => buildDraft(input, mint));
      expect(error.code).toBe("invalid_entry");
      expect((error.data.diagnostics as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it("accepts a future file of exactly 65,536 bytes and refuses 65,537 with the size", () => {
    expect(LIMITS.fileBytes).toBe(65_536);
    const accepted = buildDraft(draftOfSize(65_536), mint);
    expect(accepted.size).toBe(65_536);
    expect(utf8ByteLength(accepted.text)).toBe(65_536);
    const error = refusal(() => buildDraft(draftOfSize(65_537), mint));
    expect(error.code).toBe("draft_too_large");
    expect(error.data).toEqual({ size: 65_537, limit: 65_536 });
    expect(error.message).toContain("65537");
    expect(error.message).toContain("65536");
  });

  it("counts the frontmatter and multi-byte characters in the size", () => {
    const probe = buildDraft({ branch: "main", title: "T", body: "" }, mint);
    // "я" is 2 bytes: a body that alone is under the limit, over it with the frontmatter.
    const chars = Math.floor((65_536 - probe.size) / 2) + 1;
    const error = refusal(() =>
      buildDraft({ branch: "main", title: "T", body: "я".repeat(chars) }, mint),
    );
    expect(error.code).toBe("draft_too_large");
    expect(error.data.size).toBeGreaterThan(65_536);
  });

  it("refuses a whole file over the limit with its size", () => {
    const text = `---\ncontract: []\n---\n\n${"b".repeat(70_000)}\n`;
    const error = refusal(() => buildDraft({ branch: "main", text }, mint));
    expect(error.code).toBe("draft_too_large");
    expect(error.data).toEqual({ size: utf8ByteLength(text), limit: 65_536 });
  });

  it("refuses a branch name git refuses", () => {
    for (const branch of [
      "",
      "-x",
      "a..b",
      "a b",
      "x.lock",
      "a:b",
      "feature/",
      "@{x",
      "HEAD",
      "refs/heads/x",
    ]) {
      expect(refusal(() => buildDraft({ branch, title: "T", body: "B" }, mint)).code).toBe(
        "invalid_input",
      );
    }
  });

  it("refuses a field of neither form with unknown_field naming the nearest", () => {
    const typo = { branch: "main", title: "T", body: "B", word: ["x"] } as unknown as DraftInput;
    const error = refusal(() => buildDraft(typo, mint));
    expect(error.code).toBe("unknown_field");
    expect(error.data).toEqual({ field: "word", nearest: "words" });
    expect(error.message).toBe("unknown field “word”; did you mean “words”?");
    const odd = { branch: "main", text: "x", zzzzzz: 1 } as unknown as DraftInput;
    expect(refusal(() => buildDraft(odd, mint)).data).toEqual({ field: "zzzzzz" });
  });

  it("refuses an input that mixes the two forms or misses the title", () => {
    const mixed = { branch: "main", text: "x", title: "T" } as unknown as DraftInput;
    expect(refusal(() => buildDraft(mixed, mint)).code).toBe("invalid_input");
    const noTitle = { branch: "main", body: "B" } as unknown as DraftInput;
    expect(refusal(() => buildDraft(noTitle, mint)).code).toBe("invalid_input");
    const twoParagraphs = { branch: "main", title: "A\n\nB", body: "B" };
    expect(refusal(() => buildDraft(twoParagraphs, mint)).code).toBe("invalid_input");
  });
});
