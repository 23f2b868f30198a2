import { type Diagnostic, makeDiagnostic } from "../../core/entry/diagnostic.js";
import { LIMITS, type ParseResult } from "../../core/entry/entry.js";
import {
  type BatchEntry,
  type BatchFile,
  type BatchSkip,
  parseBatch,
} from "../../core/entry/parse-batch.js";
import { parseEntry } from "../../core/entry/parse-entry.js";
import { formatReport, type ReportFile } from "../../core/entry/parse-report.js";
import type { Lang } from "../../core/errors/localized-text.js";
import type { KnowledgeChange } from "../../core/push/knowledge-changes.js";
import { capReport } from "../../core/push/report-cap.js";
import type { PushRepo } from "../../ports/push-repo.js";
import { comparePaths } from "../indexing/duplicate-ids.js";
import { scanPushFiles } from "./scan-push.js";

/** The part of the index a push's parse reads: who holds an id (see `EntryIndex.idOwners`). */
export interface IdOwnerLookup {
  idOwners(source: string, ids: readonly string[]): Map<string, { repo: string; path: string }>;
}

/** Options of {@link parsePushChanges}. */
export interface ParsePushOptions {
  /** The repository's index name (`owner/name`): duplicate ids are judged against its entries. */
  repoName: string;
  /** The report's language. */
  lang: Lang;
  /** Lines kept before `… and N more`. Default: 200. */
  maxLines?: number;
}

/** What parsing a push's changed files gave. */
export interface PushParse {
  /** Files parsed (or refused unread), deletions left out. */
  files: number;
  /** Files that became entries. */
  entries: number;
  /** *Wrong* files (they are skipped when indexed). */
  skipped: number;
  /** The whole report, uncapped. */
  report: string[];
  /** The report as sent to the pusher: at most `maxLines` lines plus `… and N more`. */
  lines: string[];
}

/**
 * Parses the knowledge files a push changed (seed 004, "Разбор при отправке" and "Строго на
 * запись, терпимо на чтение"): content read by blob id from the new commit, leniently, a
 * file over 64 KB reported `file_too_large` unread, a file whose name is not UTF-8 reported
 * `file_name_not_utf8` unread, batches of at most 10 MB ("Пределы"), duplicate ids judged
 * within the push and against the repository's other entries in the index (an id held by a
 * file this push deletes or renames is free). The files read are also scanned by the secret
 * guard (`scan-push.ts`: `possible_secret`, `possible_prompt_injection` remarks, never a
 * refusal). Writes nothing.
 *
 * @param repo - the repository (in `pre-receive`: read with the hook's environment).
 * @param index - the index to judge duplicate ids against; `undefined` when there is none.
 * @param changes - from `changedKnowledgeFiles`.
 * @param options - see {@link ParsePushOptions}.
 * @returns the counts and the report (`path:line:column: reason [code]` lines, then one
 *   summary line per unknown mechanism), capped for the pusher.
 * @throws LoreError `git_failed` when a blob cannot be read.
 */
export async function parsePushChanges(
  repo: PushRepo,
  index: IdOwnerLookup | undefined,
  changes: readonly KnowledgeChange[],
  options: ParsePushOptions,
): Promise<PushParse> {
  const gone = new Set<string>();
  for (const change of changes) {
    if (change.kind === "deleted") gone.add(change.path);
    if (change.oldPath !== undefined) gone.add(change.oldPath);
  }
  const present = changes
    .filter((change) => change.kind !== "deleted" && change.sha !== null)
    .sort((a, b) => comparePaths(a.path, b.path));
  const entries: BatchEntry[] = [];
  const skipped: BatchSkip[] = [];
  const toRead: KnowledgeChange[] = [];
  const sizes = await repo.blobSizes(
    present.filter((change) => change.refused === undefined).map((change) => change.sha as string),
  );
  for (const change of present) {
    const size = sizes.get(change.sha as string) ?? 0;
    if (change.refused !== undefined) {
      skipped.push({ path: change.path, diagnostics: [change.refused] });
    } else if (size > LIMITS.fileBytes) {
      skipped.push({
        path: change.path,
        diagnostics: [
          makeDiagnostic("file_too_large", {
            path: change.path,
            params: { size, limit: LIMITS.fileBytes },
          }),
        ],
      });
    } else toRead.push(change);
  }

  // Ids taken in this push so far (lower case) → path; later batches see earlier ones.
  const taken = new Map<string, string>();
  const parseOne = (files: BatchFile[]) => {
    const preparsed: ParseResult[] = files.map((file) =>
      parseEntry(file.bytes, { mode: "lenient", path: file.path }),
    );
    const ids = preparsed.flatMap((result) =>
      result.value === undefined ? [] : [result.value.entry.id],
    );
    const knownIds = new Map(taken);
    for (const [id, owner] of index?.idOwners(options.repoName, ids) ?? []) {
      if (!gone.has(owner.path) && !knownIds.has(id)) knownIds.set(id, owner.path);
    }
    const batch = parseBatch(files, { mode: "lenient", knownIds, preparsed });
    entries.push(...batch.entries);
    skipped.push(...batch.skipped);
    for (const entry of batch.entries) taken.set(entry.parsed.entry.id, entry.path);
  };

  // The secret guard's remarks by path (scan-push.ts), merged into the report below.
  const remarks = new Map<string, Diagnostic[]>();
  let batch: BatchFile[] = [];
  let bytes = 0;
  let position = 0;
  for await (const { sha, bytes: content } of repo.readBlobs(toRead.map((c) => c.sha as string))) {
    const change = toRead[position++];
    if (change === undefined || change.sha !== sha) continue;
    if (batch.length > 0 && bytes + content.byteLength > LIMITS.batchBytes) {
      await scanPushFiles(batch, remarks);
      parseOne(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ path: change.path, bytes: content });
    bytes += content.byteLength;
  }
  if (batch.length > 0) {
    await scanPushFiles(batch, remarks);
    parseOne(batch);
  }

  // One list in path order, entries and skipped files mixed, as the author reads a tree.
  const files: ReportFile[] = [
    ...entries.map(({ path, parsed, diagnostics }) => ({
      path,
      diagnostics,
      unmetMechanisms: parsed.unmetMechanisms,
    })),
    ...skipped,
  ]
    .map((file) => {
      const more = remarks.get(file.path);
      return more === undefined ? file : { ...file, diagnostics: [...file.diagnostics, ...more] };
    })
    .sort((a, b) => comparePaths(a.path, b.path));
  const report = formatReport({ files }, options.lang);
  return {
    files: present.length,
    entries: entries.length,
    skipped: skipped.length,
    report,
    lines: capReport(report, options.lang, options.maxLines),
  };
}
