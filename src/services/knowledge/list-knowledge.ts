/**
 * A repository's index whole (seed 004, "Интерфейс": «Указатель отдаётся целиком, без
 * разбиения на страницы … Действует защитный потолок в тысячу записей; если выдачу обрезали,
 * ответ несёт оговорку partial: "truncated". … Отсутствие поля partial означает полный
 * ответ»).
 */
import type { ContractClause, Origin } from "../../core/entry/entry.js";
import type { EntryIndex } from "../../index/entry-index.js";
import { KnowledgeListing } from "../../index/knowledge-listing.js";

/** The safety cap of one listing: at most this many records, then `partial: "truncated"`. */
export const KNOWLEDGE_LISTING_CAP = 1_000;

/** One item of the listing, in the API's field names. */
export interface KnowledgeItem {
  id: string;
  path: string;
  blob_sha: string;
  origin: Origin;
  summary: string;
  links: string[];
  contract: ContractClause[];
  reachable: boolean;
  unmet_mechanisms: string[];
  /**
   * The diagnostics of the file's last parse (warnings and notes: a file with an error is
   * skipped and has no record), each `{code, severity, line?, message, message_ru}`.
   */
  diagnostics: ListedDiagnostic[];
  /**
   * `true` for a draft of the repository (seed 004: visible at once, marked unverified):
   * `path` is its future file, `blob_sha` the blob name of its future text.
   */
  draft?: true;
  /** The branch a draft was written on; only with `draft`. */
  branch?: string;
}

/** One diagnostic of a listed record: its stable code, severity, line, both messages. */
export interface ListedDiagnostic {
  code: string;
  severity: "error" | "warning" | "info";
  line?: number;
  message: string;
  message_ru: string;
}

/** The listing: every item, and `partial: "truncated"` only when the cap cut it. */
export interface KnowledgeListingAnswer {
  items: KnowledgeItem[];
  partial?: "truncated";
}

const listings = new WeakMap<EntryIndex, KnowledgeListing>();

/**
 * Every index record of one repository — contract, `reachable`, `unmet_mechanisms`, the
 * last parse's `diagnostics`, path,
 * blob sha, origin, summary, id, links; no body — and its drafts the same way, marked
 * `draft: true` with their `branch` (seed 004), ordered by path, whole, no paging. Past
 * `cap` records the answer holds the first `cap` and `partial: "truncated"`; a complete
 * answer has no `partial` field. The caller checks the rights first.
 *
 * @param index - the index.
 * @param repo - the index repository name (`owner/name`).
 * @param cap - the safety cap. Default {@link KNOWLEDGE_LISTING_CAP} (1,000).
 */
export function listKnowledge(
  index: EntryIndex,
  repo: string,
  cap: number = KNOWLEDGE_LISTING_CAP,
): KnowledgeListingAnswer {
  let listing = listings.get(index);
  if (listing === undefined) {
    listing = index.withDatabase((db) => new KnowledgeListing(db));
    listings.set(index, listing);
  }
  const rows = listing.list(repo, cap + 1);
  const items = rows.slice(0, cap).map((row) => {
    const item: KnowledgeItem = {
      id: row.id,
      path: row.path,
      blob_sha: row.blobSha,
      origin: row.origin,
      summary: row.summary,
      links: row.links,
      contract: row.contract,
      reachable: row.reachable,
      unmet_mechanisms: row.unmetMechanisms,
      diagnostics: row.diagnostics.map((d) => ({
        code: d.code,
        severity: d.severity,
        ...(d.line === undefined ? {} : { line: d.line }),
        message: d.message.en,
        message_ru: d.message.ru,
      })),
    };
    if (row.draftBranch !== undefined) {
      item.draft = true;
      item.branch = row.draftBranch;
    }
    return item;
  });
  return rows.length > cap ? { items, partial: "truncated" } : { items };
}
