/**
 * What recall and search answer: a page of hits, an opaque cursor, a byte budget
 * (interfaces: "recall returns at most `limit` hits (default 10) with summaries,
 * never bodies, a `total` and a `next_cursor`, under a fixed byte budget").
 */

import { repoOfDraftSource } from "../../core/drafts/draft.js";
import type { Origin } from "../../core/entry/entry.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { MatchReason } from "../../core/recall/contract-match.js";
import { type HitKind, hitSource } from "../../core/recall/hit-source.js";
import { parseSearchQuery, type SearchQuery } from "../../core/recall/search-query.js";
import type { EntryIndex, HitRecord } from "../../index/entry-index.js";

/** One listed entry, root note or wiki page: never the body. */
export interface RecallHit {
  id: string;
  /** `entry` (of a repository), `note` (of a knowledge root) or `wiki` (a page of the project's wiki). */
  kind: HitKind;
  /**
   * Where it comes from: the repository of an entry, the root id of a note, the page's path
   * in the project of a wiki page (`.wiki/concepts/stripe-webhooks.md`).
   */
  source: string;
  /** The repository name the entry is stored under. */
  repo: string;
  /** The file's path in the repository. */
  path: string;
  /**
   * The knowledge root the hit comes from (`group`, `primary`, …), for notes of a root
   * (knowledge roots, seed 003); absent for entries of a repository.
   */
  root?: string;
  /** The display fragment (≤ 512 bytes). */
  summary: string;
  origin: Origin;
  /** Every reason it matched: `on_query` words, `on_tool` names, `text`. */
  why: MatchReason[];
  /**
   * Orders the whole list, higher first, 4 decimals. For recall: `matched + 0.5·contract +
   * 0.5·r/(r+1)` — the query words matched by contract or text (+1 for the tool), 0.5 when
   * the contract fired, and the text relevance `r = -bm25` squeezed below 0.5
   * (`core/recall/recall-score.ts`). For search: `-bm25` (0 for a query too broad to rank).
   */
  score: number;
  /**
   * `true` for a draft (seed 004, "Как знание выходит наружу": visible at once, marked
   * unverified): `repo` and `source` are then its repository, `path` its future file.
   * Absent for an entry of a file.
   */
  draft?: true;
  /** The branch a draft was written on; only with `draft`. */
  branch?: string;
}

/** A page of hits. */
export interface HitPage {
  hits: RecallHit[];
  /** Distinct matching entries (a lower bound when `total_exact` is false). */
  total: number;
  /** False when `total` is a lower bound (a very broad query, see `index/text-search.ts`). */
  total_exact: boolean;
  /** Pass it back as `cursor` for the next page; `null` on the last page. */
  next_cursor: string | null;
}

/** Default number of hits per page. */
export const DEFAULT_LIMIT = 10;
/** Largest number of hits per page. */
export const MAX_LIMIT = 50;
/** Largest serialised page (JSON, UTF-8), bytes; hits past it move to the next page. */
export const ANSWER_BYTE_BUDGET = 32 * 1024;

/**
 * Checks a page size.
 *
 * @param limit - the caller's value; absent = {@link DEFAULT_LIMIT}.
 * @returns the limit.
 * @throws LoreError `invalid_limit` unless a whole number from 1 to {@link MAX_LIMIT}.
 */
export function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new LoreError("invalid_limit", { max: MAX_LIMIT });
  }
  return limit;
}

/**
 * A short fingerprint of what a cursor belongs to (kind of call, the query's FTS terms, the
 * tool): two 32-bit FNV-1a hashes, hex.
 *
 * @param parts - the canonical parts of the request.
 */
export function requestKey(parts: readonly string[]): string {
  const text = parts.join("\u0000");
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/**
 * Makes the opaque cursor of a page start: base64url of `{o: offset, k: key}`.
 *
 * @param offset - hits before the next page.
 * @param key - {@link requestKey} of the request.
 */
export function encodeCursor(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString("base64url");
}

/**
 * The offset a cursor starts at, for a cursor the recall that took it has already accepted
 * (so it is not checked against a request here): the number of hits on earlier pages.
 *
 * @param cursor - an accepted cursor; absent = the first page.
 * @returns hits before the page; 0 when absent or unreadable.
 */
export function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown };
    return typeof o === "number" && Number.isSafeInteger(o) && o > 0 ? o : 0;
  } catch {
    return 0;
  }
}

/**
 * Reads a cursor back.
 *
 * @param cursor - the caller's cursor; absent = the first page.
 * @param key - {@link requestKey} of this request.
 * @returns the offset.
 * @throws LoreError `invalid_cursor` when it is malformed or was made for another request.
 */
export function decodeCursor(cursor: string | undefined, key: string): number {
  if (cursor === undefined) return 0;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch (error) {
    throw new LoreError("invalid_cursor", {}, { cause: error });
  }
  const { o, k } = (value ?? {}) as { o?: unknown; k?: unknown };
  if (k !== key || typeof o !== "number" || !Number.isSafeInteger(o) || o < 0) {
    throw new LoreError("invalid_cursor");
  }
  return o;
}

/**
 * Drops hits from the end until the serialised page fits {@link ANSWER_BYTE_BUDGET}
 * (never below one hit) and sets `next_cursor` to where the page really ends.
 *
 * @param hits - the page's hits, in order.
 * @param page - `offset` (hits before this page), `total` and `totalExact`, `more` (whether
 *   matches follow the last of `hits`), `key` ({@link requestKey} of the request).
 */
export function fitPage(
  hits: RecallHit[],
  page: { offset: number; total: number; totalExact: boolean; more: boolean; key: string },
): HitPage {
  // Budget with the longest cursor this page could carry; each hit adds its JSON and a comma.
  const empty: HitPage = {
    hits: [],
    total: page.total,
    total_exact: page.totalExact,
    next_cursor: encodeCursor(Number.MAX_SAFE_INTEGER, page.key),
  };
  let bytes = Buffer.byteLength(JSON.stringify(empty));
  let kept = 0;
  for (const hit of hits) {
    bytes += Buffer.byteLength(JSON.stringify(hit)) + (kept > 0 ? 1 : 0);
    if (kept > 0 && bytes > ANSWER_BYTE_BUDGET) break;
    kept += 1;
  }
  const list = kept === hits.length ? hits : hits.slice(0, kept);
  const more = kept < hits.length || page.more;
  return {
    hits: list,
    total: page.total,
    total_exact: page.totalExact,
    next_cursor: more ? encodeCursor(page.offset + kept, page.key) : null,
  };
}

/**
 * Parses a recall query unless it is blank and a tool is given (a tool-only recall).
 *
 * @param query - the caller's query; absent or blank is allowed only with a tool.
 * @param hasTool - whether the request names a tool.
 * @returns the parsed query, or `undefined` for a tool-only recall.
 * @throws LoreError `empty_query` when there is no word and no tool.
 */
export function parseOptionalQuery(
  query: string | undefined,
  hasTool: boolean,
): SearchQuery | undefined {
  if (query === undefined || (hasTool && query.trim() === "")) {
    if (hasTool) return undefined;
    throw new LoreError("empty_query");
  }
  try {
    return parseSearchQuery(query);
  } catch (error) {
    // A query of punctuation only beside a tool: recall by the tool alone.
    if (hasTool && error instanceof LoreError && error.code === "empty_query") return undefined;
    throw error;
  }
}

/**
 * The query's part of a {@link requestKey}: its FTS terms joined by spaces.
 *
 * @param query - the parsed query; absent (a tool-only recall) gives `""`.
 */
export function queryKey(query: SearchQuery | undefined): string {
  return query === undefined ? "" : query.terms.map((term) => term.fts).join(" ");
}

/**
 * Builds a hit from its record: kind and source from its index repository (`hitSource`).
 *
 * @param record - the entry's listing fields.
 * @param why - why it matched.
 * @param score - its score (see {@link RecallHit.score}).
 */
export function recallHit(record: HitRecord, why: MatchReason[], score: number): RecallHit {
  const { id, path, summary, origin } = record;
  // A draft is stored under `draft:<repo>`; it is listed as an entry of `<repo>`, marked.
  const draftOf = repoOfDraftSource(record.repo);
  const repo = draftOf ?? record.repo;
  const { kind, source } = hitSource(repo, path);
  const hit: RecallHit = { id, kind, source, repo, path, summary, origin, why, score };
  if (draftOf !== undefined) {
    hit.draft = true;
    if (record.draftBranch !== undefined) hit.branch = record.draftBranch;
  }
  return hit;
}

/**
 * Turns full-text rows into hits (`why: [{kind: "text"}]`), skipping rows without a record.
 *
 * @param records - `index.hitRecords(...)` of at least these rows.
 * @param rows - the text matches, in order.
 * @returns the hits, in the rows' order.
 */
export function textHits(
  records: ReadonlyMap<number, HitRecord>,
  rows: readonly { fileId: number; score: number }[],
): RecallHit[] {
  const hits: RecallHit[] = [];
  for (const row of rows) {
    const record = records.get(row.fileId);
    if (record === undefined) continue;
    hits.push(recallHit(record, [{ kind: "text" }], row.score));
  }
  return hits;
}

/** How a recall counts its listed entries as shown (see {@link countShown}). */
export interface ShownCounting {
  /** Who is asking. */
  user: string;
  /** The time of the showing, ms since the epoch. Default: now. */
  now?: number;
  /**
   * `false`: nothing is counted (a client that marks shown itself; the team server, which
   * counts durably itself, `CounterStore.recordShown`). Default `true`: queued
   * (`EntryIndex.countShown`, written shortly after).
   */
  countShown?: boolean;
}

/**
 * Counts the page's entries as shown to the asking user, unless
 * `countShown` is `false`.
 *
 * @param index - the index.
 * @param input - see {@link ShownCounting}.
 * @param page - the answer about to be returned.
 * @returns `page`, unchanged.
 */
export function countShown<T extends HitPage>(index: EntryIndex, input: ShownCounting, page: T): T {
  if (input.countShown === false) return page;
  index.countShown(
    input.user,
    page.hits.map((hit) => ({ repo: hit.repo, id: hit.id })),
    input.now ?? Date.now(),
  );
  return page;
}
