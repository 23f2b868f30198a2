import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DRAFT_LIMIT_DEFAULT,
  type DraftInput,
  draftFilePath,
  draftSourceOf,
} from "../../core/drafts/draft.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { type EntryIndex, openIndex } from "../../index/entry-index.js";
import { gitBlobSha } from "../indexing/index-folder.js";
import { localDraftLimit } from "./draft-limit.js";
import { counterMinter, refusalOf, tempIndex } from "./drafts.test-helpers.js";
import { writeDraft } from "./write-draft.js";

let temp: ReturnType<typeof tempIndex>;
let index: EntryIndex;
beforeEach(() => {
  temp = tempIndex("lore-write-draft-");
  index = temp.index;
});
afterEach(() => temp.done());

const note = (n: number): DraftInput => ({
  branch: "feature/x",
  title: `Lesson ${n}`,
  body: `What was learned, number ${n}.`,
  words: ["lesson"],
});
const deps = (extra: Partial<Parameters<typeof writeDraft>[0]> = {}) => ({
  index,
  limitFor: localDraftLimit,
  now: () => Date.UTC(2026, 0, 2, 3, 4, 5),
  ...extra,
});

describe("writeDraft", () => {
  it("stores the draft and its entry under draft:<repo> at its future path, blob sha of its text", async () => {
    const draft = await writeDraft(deps(), { repo: "acme/app", author: "anna", input: note(1) });
    expect(draft).toMatchObject({
      repo: "acme/app",
      branch: "feature/x",
      author: "anna",
      createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    });
    expect(index.drafts.get("acme/app", draft.id)).toEqual(draft);
    const files = index.listFiles(draftSourceOf("acme/app"));
    const expectedSha = gitBlobSha(new TextEncoder().encode(draft.text));
    expect([...files]).toEqual([[draftFilePath(draft.id), expectedSha]]);
    const stored = index.getEntry(draft.id, draftSourceOf("acme/app"));
    expect(stored?.body).toBe("Lesson 1\n\nWhat was learned, number 1.\n");
    expect(stored?.origin).toBe("agent");
    expect(parseEntry(draft.text, { mode: "strict" }).value?.entry.id).toBe(draft.id);
  });

  it("refuses `sumary` naming `summary`, storing nothing", async () => {
    const error = await refusalOf(() =>
      writeDraft(deps(), {
        repo: "acme/app",
        author: "anna",
        input: {
          branch: "main",
          text: "---\nsumary: Deploys need a retry\ncontract: []\n---\n\nDeploys need a retry.\n",
        },
      }),
    );
    expect(error.code).toBe("invalid_entry");
    expect(error.message).toContain("summary");
    expect(error.data.diagnostics).toMatchObject([
      { code: "unknown_key", params: { key: "sumary", nearest: "summary" } },
    ]);
    expect(index.drafts.countByAuthor("anna")).toBe(0);
  });

  it("accepts a future file of 65,536 bytes and refuses 65,537 with the size", async () => {
    const base = { branch: "main", title: "Big", words: ["big"] };
    const probe = await writeDraft(deps({ mintId: counterMinter(1) }), {
      repo: "probe",
      author: "p",
      input: { ...base, body: "x" },
    });
    const sized = (bytes: number): DraftInput => ({
      ...base,
      body: "x".repeat(1 + bytes - probe.size),
    });
    const ok = await writeDraft(deps({ mintId: counterMinter(2) }), {
      repo: "acme/app",
      author: "anna",
      input: sized(65_536),
    });
    expect(ok.size).toBe(65_536);
    expect(Buffer.byteLength(ok.text)).toBe(65_536);
    const error = await refusalOf(() =>
      writeDraft(deps({ mintId: counterMinter(3) }), {
        repo: "acme/app",
        author: "anna",
        input: sized(65_537),
      }),
    );
    expect(error.code).toBe("draft_too_large");
    expect(error.data).toEqual({ size: 65_537, limit: 65_536 });
    expect(error.message).toContain("65537");
  });

  it("refuses an id held by a file entry or a draft of the same repository, not of another", async () => {
    const id = "0190f5a4-3b2c-7d10-8a11-00000000beef";
    const text = `---\nid: ${id}\ncontract: []\n---\n\nA note.\n`;
    index.putFile({
      repo: "acme/app",
      path: ".gitriver/knowledge/note.md",
      blobSha: "a".repeat(40),
      parsed: parseEntry(text, { mode: "strict" }).value,
      diagnostics: [],
    });
    const taken = await refusalOf(() =>
      writeDraft(deps(), { repo: "acme/app", author: "anna", input: { branch: "main", text } }),
    );
    expect(taken.code).toBe("draft_id_taken");
    expect(taken.data).toEqual({ id, path: ".gitriver/knowledge/note.md", repo: "acme/app" });

    await writeDraft(deps(), {
      repo: "acme/other",
      author: "anna",
      input: { branch: "main", text },
    });
    const again = await refusalOf(() =>
      writeDraft(deps(), { repo: "acme/other", author: "boris", input: { branch: "dev", text } }),
    );
    expect(again.code).toBe("draft_id_taken");
    expect(again.data).toEqual({ id, path: draftFilePath(id), repo: "acme/other" });
  });

  it("refuses the 201st draft of an author with count and limit; others may still write", async () => {
    const mintId = counterMinter(1);
    for (let i = 0; i < DRAFT_LIMIT_DEFAULT; i += 1) {
      await writeDraft(deps({ mintId }), {
        repo: i % 2 === 0 ? "acme/a" : "acme/b",
        author: "anna",
        input: note(i),
      });
    }
    expect(index.drafts.countByAuthor("anna")).toBe(200);
    const error = await refusalOf(() =>
      writeDraft(deps({ mintId }), { repo: "acme/a", author: "anna", input: note(201) }),
    );
    expect(error.code).toBe("draft_limit_reached");
    expect(error.data).toEqual({ author: "anna", count: 200, limit: 200 });
    expect(error.message).toContain("200");
    expect(index.drafts.countByAuthor("anna")).toBe(200);
    await writeDraft(deps({ mintId }), { repo: "acme/a", author: "boris", input: note(1) });
    // Removing one makes room again.
    const first = index.drafts.list(["acme/a"], { limit: 1 })[0];
    expect(first?.author).toBe("anna");
    index.drafts.remove("acme/a", first?.id ?? "");
    await writeDraft(deps({ mintId }), { repo: "acme/a", author: "anna", input: note(202) });
  });

  it("takes the limit from limitFor, per author", async () => {
    const limitFor = async (author: string) => (author === "anna" ? 3 : 1);
    const mintId = counterMinter(1);
    for (let i = 0; i < 3; i += 1) {
      await writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "anna", input: note(i) });
    }
    const anna = await refusalOf(() =>
      writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "anna", input: note(4) }),
    );
    expect(anna.data).toEqual({ author: "anna", count: 3, limit: 3 });
    await writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "boris", input: note(1) });
    const boris = await refusalOf(() =>
      writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "boris", input: note(2) }),
    );
    expect(boris.data).toEqual({ author: "boris", count: 1, limit: 1 });
  });

  it("lets only one of two concurrent writers at the limit pass, in one process and over two connections", async () => {
    const limitFor = async () => 1;
    const mintId = counterMinter(1);
    const results = await Promise.allSettled([
      writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "anna", input: note(1) }),
      writeDraft(deps({ mintId, limitFor }), { repo: "r", author: "anna", input: note(2) }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    // A second connection to the same file counts the first's draft inside its transaction.
    const other = openIndex(`${temp.dir}/index.db`);
    try {
      const error = await refusalOf(() =>
        writeDraft(
          { index: other, limitFor, mintId },
          { repo: "r", author: "anna", input: note(3) },
        ),
      );
      expect(error.code).toBe("draft_limit_reached");
    } finally {
      other.close();
    }
    expect(index.drafts.countByAuthor("anna")).toBe(1);
  });

  it("refuses a bad branch name with invalid_input", async () => {
    const error = await refusalOf(() =>
      writeDraft(deps(), { repo: "r", author: "anna", input: { ...note(1), branch: "a..b" } }),
    );
    expect(error.code).toBe("invalid_input");
  });

  it("a credential is refused naming its line in the body the user gave, beside the file's line", async () => {
    const body = 'password = "Xk9#mQ2!vL7pZ"';
    const input: DraftInput = { branch: "main", title: "Use pnpm", body, words: ["pnpm", "npm"] };
    const error = await refusalOf(() => writeDraft(deps(), { repo: "r", author: "anna", input }));
    expect(error.code).toBe("secret_detected");
    const data = error.data as { line: number; part: string; part_line: number; rule: string };
    expect(data).toMatchObject({
      part: "body",
      part_line: 1,
      rule: "lore/high-entropy-assignment",
    });
    expect(data.line).toBeGreaterThan(1);
    expect(error.message).toBe(
      `refused: line 1 of the body (line ${data.line} of the draft's file) looks like a secret (lore/high-entropy-assignment); remove it, nothing was written`,
    );
    expect(error.text.ru).toContain("строка 1 тела");
    expect(error.message).not.toContain("Xk9#");
    expect(index.drafts.countByAuthor("anna")).toBe(0);
    // The third line of a body, and a whole file given as text: the line of what was given.
    const deeper = await refusalOf(() =>
      writeDraft(deps(), {
        repo: "r",
        author: "anna",
        input: { ...input, body: `One.\n\n${body}` },
      }),
    );
    expect(deeper.data).toMatchObject({ part: "body", part_line: 3 });
    const text = `---\nsummary: Keys\n---\n\nFirst.\n\n${body}\n`;
    const asText = await refusalOf(() =>
      writeDraft(deps(), { repo: "r", author: "anna", input: { branch: "main", text } }),
    );
    expect(asText.data).toMatchObject({ part: "text", part_line: 7 });
    expect(asText.message).toContain("line 7 of the text given");
  });
});
