import { buildDraft } from "../../core/drafts/build-draft.js";
import { type DraftInput, type DraftRecord, draftFilePath } from "../../core/drafts/draft.js";
import { type DraftPart, draftSecretDetected } from "../../core/safety/secret-finding.js";
import type { EntryIndex } from "../../index/entry-index.js";
import type { DraftStore } from "../../ports/draft-store.js";
import { mintEntryId } from "../knowledge/mint-entry-id.js";
import { scanSecrets } from "../safety/scan-secrets.js";
import { sqliteDraftStore } from "./sqlite-draft-store.js";

/** What {@link writeDraft} needs. */
export interface DraftDeps {
  /** The index the draft is written into (seed 004: «черновики пишутся прямо в него»). */
  index: EntryIndex;
  /**
   * The drafts (the port: PostgreSQL on a team server with `[server] database`, mirrored
   * into `index`). Default: the index's own (`sqliteDraftStore(index)`).
   */
  drafts?: DraftStore;
  /** The clock, ms since the epoch. Default: `Date.now`. */
  now?: () => number;
  /**
   * The draft limit of an author, a count of drafts: `serverDraftLimit(store)` on the team
   * server, `localDraftLimit` locally (see `draft-limit.ts`).
   */
  limitFor: (author: string) => Promise<number>;
  /** Gives a fresh UUIDv7 for a draft written without an id. Default: `mintEntryId`. */
  mintId?: () => string;
}

/**
 * Writes a draft (seed 004, "Как знание выходит наружу": `POST …/knowledge/drafts`,
 * `knowledge_draft`, `lore draft add`): builds its future file (`buildDraft`: strict parse,
 * id assigned when absent, the 64 KB limit), scans that file for credentials (the secret
 * guard, `services/safety/scan-secrets.ts`: a hit refuses before anything is stored), then
 * in ONE step of the drafts store (`DraftStore.insert`) checks the id is free in the
 * repository (no file entry of `repo`, no draft of it) and the author holds fewer drafts
 * than their limit, and stores the draft with its entry under `draft:<repo>` so recall,
 * search and open see it at once.
 *
 * The count and the insert are one step: on SQLite the index's `BEGIN IMMEDIATE`
 * transaction (`sqlite-draft-store.ts`: two writers at the limit in one process or in two
 * on one index file never both pass, the lock waited for on the event loop); on PostgreSQL
 * one transaction under the drafts' change lock (`mirrored-draft-store.ts`: exact across
 * every server over the database).
 *
 * @param deps - see {@link DraftDeps}.
 * @param args - `repo`: the repository's index name (`owner/name` hosted, the identity of
 *   a local one); `author`: the writer's user name; `input`: the draft.
 * @returns the stored draft.
 * @throws LoreError `invalid_input` (bad branch name, an input of neither form),
 *   `unknown_field` (`data: {field, nearest?}`: a key of neither input form),
 *   `invalid_entry` (`data.diagnostics`), `draft_too_large` (`data: {size, limit}`),
 *   `draft_id_taken` (`data: {id, path, repo}`), `draft_limit_reached`
 *   (`data: {author, count, limit}`) and `secret_detected` (`data: {line, rule, part?,
 *   part_line?}`: the line of the draft's file as it would be delivered, and the line of
 *   the part the client wrote — `title`, `body` or `text` — that holds it).
 */
export async function writeDraft(
  deps: DraftDeps,
  args: { repo: string; author: string; input: DraftInput },
): Promise<DraftRecord> {
  const built = buildDraft(args.input, deps.mintId ?? mintEntryId);
  await refuseDraftSecrets(built.text, built.id, args.input);
  const limit = await deps.limitFor(args.author);
  const draft: DraftRecord = {
    id: built.id,
    repo: args.repo,
    branch: built.branch,
    author: args.author,
    createdAt: (deps.now ?? Date.now)(),
    size: built.size,
    text: built.text,
  };
  await (deps.drafts ?? sqliteDraftStore(deps.index)).insert(
    draft,
    { parsed: built.parsed, diagnostics: built.diagnostics },
    limit,
  );
  return draft;
}

/**
 * Refuses a draft whose future file holds a credential (the file is what is scanned), and
 * names the line in what the client wrote: each part given (`title` and `body`, or `text`)
 * is scanned in turn and the first holding a finding of the same rule names its line.
 *
 * @throws LoreError `secret_detected` (see `draftSecretDetected`).
 */
async function refuseDraftSecrets(text: string, id: string, input: DraftInput): Promise<void> {
  const [first] = await scanSecrets(text);
  if (first === undefined) return;
  const parts: [DraftPart, string][] =
    "text" in input
      ? [["text", input.text]]
      : [
          ["title", input.title],
          ["body", input.body],
        ];
  let place: { part: DraftPart; line: number } | undefined;
  for (const [part, given] of parts) {
    const found = (await scanSecrets(given)).find((finding) => finding.rule === first.rule);
    if (found !== undefined) {
      place = { part, line: found.line };
      break;
    }
  }
  throw draftSecretDetected(first, draftFilePath(id), place);
}
