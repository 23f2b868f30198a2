import { type Diagnostic, makeDiagnostic } from "./diagnostic.js";
import { LIMITS, type ParsedEntry, type ParseResult } from "./entry.js";
import { type ParseMode, parseEntry } from "./parse-entry.js";

/** One file of a batch: its path (relative to the repository) and its bytes. */
export interface BatchFile {
  path: string;
  bytes: Uint8Array;
}

/** Options of {@link parseBatch}. */
export interface BatchOptions {
  /** Parse mode for every file; see `parseEntry`. */
  mode: ParseMode;
  /**
   * Ids already owned by files outside this batch, id (lower case) → path. A file of the
   * batch whose id is owned by another path gets `duplicate_id`. An owner whose path is in
   * this batch is ignored: its new content decides. Default: none.
   */
  knownIds?: ReadonlyMap<string, string>;
  /**
   * `parseEntry(files[i].bytes, { mode, path: files[i].path })` computed beforehand (e.g. in
   * a worker thread), aligned with `files`; used instead of parsing again (its diagnostics
   * array is copied, never changed). Default: each file is parsed here.
   */
  preparsed?: readonly ParseResult[];
}

/** A file of the batch that became an entry. */
export interface BatchEntry {
  path: string;
  parsed: ParsedEntry;
  /** Notes and warnings about it (never an `error`). */
  diagnostics: Diagnostic[];
}

/** A file of the batch that was skipped as *wrong*; `diagnostics` holds at least one error. */
export interface BatchSkip {
  path: string;
  diagnostics: Diagnostic[];
}

/** The outcome of {@link parseBatch}. */
export interface BatchResult {
  /** Entries, in the order of the files given. */
  entries: BatchEntry[];
  /** Skipped files, in the order of the files given. */
  skipped: BatchSkip[];
  /** Paths past the batch limit, in order: not read here; the caller parses them next. */
  deferred: string[];
  /** One `batch_limit` diagnostic per deferred path. */
  diagnostics: Diagnostic[];
}

/**
 * Parses a batch of entry files (seed 004, "Строго на запись, терпимо на чтение" and
 * "Пределы"): files are taken in the given order until their sizes add up past
 * {@link LIMITS.batchBytes} (10 MB); that file and every later one are deferred, each with a
 * `batch_limit` diagnostic — never dropped silently. A file over the 64 KB file limit costs
 * nothing toward the batch (it is skipped unread with `file_too_large`), so the first file
 * always fits and batches always progress.
 *
 * Duplicate ids: the first file (in the given order) keeps the id, later ones are skipped
 * with `duplicate_id` naming it; an id owned by another path in `knownIds` does the same.
 *
 * @param files - the files, in the order that decides "first wins" and the cut.
 * @param opts - mode and known ids, see {@link BatchOptions}.
 * @returns entries, skipped files, deferred paths and batch diagnostics. Never throws.
 */
export function parseBatch(files: readonly BatchFile[], opts: BatchOptions): BatchResult {
  const result: BatchResult = { entries: [], skipped: [], deferred: [], diagnostics: [] };
  const inBatch = new Set(files.map((file) => file.path));
  const owners = new Map<string, string>();
  let bytes = 0;
  for (const [index, file] of files.entries()) {
    const size = file.bytes.byteLength;
    const cost = size > LIMITS.fileBytes ? 0 : size;
    if (bytes + cost > LIMITS.batchBytes) {
      for (const rest of files.slice(index)) {
        result.deferred.push(rest.path);
        result.diagnostics.push(
          makeDiagnostic("batch_limit", { path: rest.path, params: { limit: LIMITS.batchBytes } }),
        );
      }
      break;
    }
    bytes += cost;
    const given = opts.preparsed?.[index];
    const { value, diagnostics } =
      given === undefined
        ? parseEntry(file.bytes, { mode: opts.mode, path: file.path })
        : { value: given.value, diagnostics: [...given.diagnostics] };
    if (value === undefined) {
      result.skipped.push({ path: file.path, diagnostics });
      continue;
    }
    const id = value.entry.id;
    const known = opts.knownIds?.get(id);
    const first = owners.get(id);
    const other =
      first !== undefined && first !== file.path
        ? first
        : known !== undefined && known !== file.path && !inBatch.has(known)
          ? known
          : undefined;
    if (other !== undefined) {
      diagnostics.push(
        makeDiagnostic("duplicate_id", { path: file.path, at: "id", params: { id, other } }),
      );
      result.skipped.push({ path: file.path, diagnostics });
      continue;
    }
    owners.set(id, file.path);
    result.entries.push({ path: file.path, parsed: value, diagnostics });
  }
  return result;
}
