import type { ParseResult } from "../core/entry.js";
import type { EntryView } from "../services/get-entry.js";
import type { RecallAnswer } from "../services/recall.js";

/** Arguments of a recall, as the tool receives them (issue 2 §4). */
export interface RecallArgs {
  query?: string;
  tool?: string;
  limit?: number;
  cursor?: string;
}

/**
 * What the MCP tools need from Lore (STYLE.md habit 3: a port is the subset its consumer
 * uses). `main/compose.ts` binds it to the index and the services with the configured user.
 */
export interface KnowledgePort {
  /**
   * Resolves when start-up indexing is done (the tools await it so the first answer sees
   * the repositories); never rejects — indexing failures are logged, not thrown.
   */
  ready: Promise<void>;
  /**
   * Recall: contract hits, then full-text hits, summaries only; counts the listed entries as
   * shown. Returns `{hits, total, total_exact, next_cursor}`.
   * @throws LoreError `empty_query`, `invalid_cursor`, `invalid_limit`, `index_failed`.
   */
  recall(args: RecallArgs): Promise<RecallAnswer> | RecallAnswer;
  /**
   * The whole entry with its body; counts a read.
   * @throws LoreError `entry_not_found`.
   */
  open(id: string): Promise<EntryView> | EntryView;
  /** Strict parse of a text as an entry file (pure). */
  check(text: string, path?: string): ParseResult;
}
