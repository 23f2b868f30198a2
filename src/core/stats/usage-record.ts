/**
 * One entry of a repository with its usage, as the index reads it (`EntryIndex.usage`) and
 * the stats reports shape it (`dead-memory.ts`; seed 004 "Интерфейс": `stats/me`,
 * `stats/team`, `stats/dead`). Times are ms since the Unix epoch. Pure: a type.
 */
export interface UsageRecord {
  id: string;
  /** The file's path (a draft's: its future file `.gitriver/knowledge/<id>.md`). */
  path: string;
  summary: string;
  /** Times shown: one user's, or everyone's summed. */
  shown: number;
  read: number;
  /** Last showing, ms since the epoch; `null` when never. */
  lastShownAt: number | null;
  lastReadAt: number | null;
  /** When the index first held the id (index migration 7), ms since the epoch. */
  firstSeenAt: number;
  /** Whether the contract can fire (seed 004, "достижимость"). */
  reachable: boolean;
  /** Mechanisms the entry declares that this version does not know. */
  unmetMechanisms: string[];
  /** The branch of a draft of the repository; absent for a file's entry. */
  draftBranch?: string;
}
