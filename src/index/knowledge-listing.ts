/**
 * A repository's index as a listing (seed 004, "Интерфейс": `GET
 * /repos/{owner}/{name}/knowledge` — «Указатель репозитория: {items, partial?} — записи с
 * контрактом и признаком достижимости»; «Тела записи в указателе нет»): every stored entry of
 * one repository with its contract and reachability, never its body.
 */
import type { Diagnostic } from "../core/entry/diagnostic.js";
import type { ContractClause, Origin } from "../core/entry/entry.js";
import type { SqliteDatabase } from "./sqlite-database.js";

/** One entry of a repository's index, without its body. */
export interface KnowledgeRecord {
  id: string;
  /** The file's path in the repository (`.gitriver/knowledge/…`): its body is read from there. */
  path: string;
  /** The git blob sha of the file as indexed. */
  blobSha: string;
  origin: Origin;
  summary: string;
  links: string[];
  /** The contract as written (unknown mechanisms included). */
  contract: ContractClause[];
  /** Whether the contract can fire (seed 004, "достижимость"). */
  reachable: boolean;
  /** Mechanisms the entry declares that this version does not know. */
  unmetMechanisms: string[];
  /** The file's report of its last parse (warnings and notes; a file with an error has no entry). */
  diagnostics: Diagnostic[];
  /**
   * The branch of a draft of the repository (seed 004: drafts are visible at once, marked);
   * absent for a file's entry. A draft's `path` is its future file, `blobSha` the git blob
   * name of its future text.
   */
  draftBranch?: string;
}

type Row = {
  id: string;
  path: string;
  blobSha: string;
  origin: string;
  summary: string;
  links: string;
  contract: string;
  reachable: number;
  unmetMechanisms: string;
  report: string;
  isDraft: number;
  draftBranch: string | null;
};

/** The listing query; its statement prepared once. */
export class KnowledgeListing {
  readonly #list;

  /** @param db - a migrated index database. */
  constructor(db: SqliteDatabase) {
    // `entries.repo` is the source's name; the body column is never read. The repository's
    // drafts are its source `draft:<repo>`, their branch read from `drafts`.
    this.#list = db.prepare(
      `SELECT e.id, f.path, f.blob_sha AS blobSha, e.origin, e.summary, e.links, e.contract,
         e.reachable, e.unmet_mechanisms AS unmetMechanisms, f.report, f.repo <> @repo AS isDraft,
         d.branch AS draftBranch
       FROM entries e JOIN files f USING (file_id)
       LEFT JOIN drafts d ON f.repo = 'draft:' || @repo AND d.repo = @repo AND d.id = e.id
       WHERE f.repo IN (@repo, 'draft:' || @repo) ORDER BY f.path, f.repo LIMIT @limit`,
    );
  }

  /**
   * The entries of one repository and its drafts, by path.
   *
   * @param repo - the index repository name (`owner/name` of a hosted repository).
   * @param limit - most records read (a caller that needs to know whether more exist asks
   *   for one more than it shows).
   * @returns at most `limit` records, ordered by path.
   */
  list(repo: string, limit: number): KnowledgeRecord[] {
    return (this.#list.all({ repo, limit }) as Row[]).map((row) => ({
      id: row.id,
      path: row.path,
      blobSha: row.blobSha,
      origin: row.origin as Origin,
      summary: row.summary,
      links: JSON.parse(row.links) as string[],
      contract: JSON.parse(row.contract) as ContractClause[],
      reachable: row.reachable === 1,
      unmetMechanisms: JSON.parse(row.unmetMechanisms) as string[],
      diagnostics: JSON.parse(row.report) as Diagnostic[],
      ...(row.isDraft === 1 ? { draftBranch: row.draftBranch ?? "" } : {}),
    }));
  }
}
