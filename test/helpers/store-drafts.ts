import { v7 } from "uuid";
import type { DraftRecord } from "../../src/core/drafts/draft.js";
import { draftFilePath, draftSourceOf } from "../../src/core/drafts/draft.js";
import { formatEntry } from "../../src/core/entry/format-entry.js";
import { parseEntry } from "../../src/core/entry/parse-entry.js";
import type { EntryIndex } from "../../src/index/entry-index.js";
import { gitBlobSha } from "../../src/services/indexing/index-folder.js";

/** What a stored test draft is made of. */
export interface TestDraft {
  repo: string;
  branch: string;
  author?: string;
  /** The body; its first paragraph is the summary. Default: a short lesson. */
  body?: string;
}

/**
 * Stores a draft the way the draft service does (its entry under `draft:<repo>`, its row in
 * `drafts`), through `index.drafts.insert`: the text is a real entry file with an `on_query`
 * contract, strictly parsed.
 */
export function storeDraft(index: EntryIndex, draft: TestDraft): DraftRecord {
  const id = v7();
  const text = formatEntry({
    id,
    origin: "agent",
    contract: [{ mechanism: "on_query", params: { words: ["deploy"] } }],
    links: [],
    unknownKeys: {},
    body:
      draft.body ?? `Lesson ${id}: restart the worker after a deploy.\n\nIt keeps a stale cache.\n`,
  });
  const parsed = parseEntry(text, { mode: "strict", path: draftFilePath(id) });
  if (parsed.value === undefined) throw new Error(JSON.stringify(parsed.diagnostics));
  const record: DraftRecord = {
    id,
    repo: draft.repo,
    branch: draft.branch,
    author: draft.author ?? "alice",
    createdAt: Date.now(),
    size: Buffer.byteLength(text, "utf8"),
    text,
  };
  index.drafts.insert(record, {
    repo: draftSourceOf(draft.repo),
    path: draftFilePath(id),
    blobSha: gitBlobSha(Buffer.from(text, "utf8")),
    parsed: parsed.value,
    diagnostics: parsed.diagnostics,
  });
  return record;
}

/** Stores `count` drafts of one branch; returns them by id. */
export function storeDrafts(index: EntryIndex, count: number, draft: TestDraft): DraftRecord[] {
  const out: DraftRecord[] = [];
  for (let i = 0; i < count; i++) out.push(storeDraft(index, draft));
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}
