/**
 * Loaders shared by several pages: a repository's index listing, and its counts (the team's
 * from the Pro `stats/team`, else the caller's own `stats/me` — a Community server refuses
 * the team's with 402, which is no failure here).
 */
import { ApiError, getJson, type KnowledgeList, repoPath, type StatsRow } from "./api.js";

/** `GET …/knowledge`. */
export function loadKnowledge(owner: string, name: string): Promise<KnowledgeList> {
  return getJson<KnowledgeList>(`${repoPath(owner, name)}/knowledge`);
}

/** Counts by entry id and whose they are. */
export interface Counts {
  of: "team" | "me";
  byId: Map<string, StatsRow>;
}

/** The team's counts, or on a 402 the caller's own. */
export async function loadCounts(owner: string, name: string): Promise<Counts> {
  const base = `${repoPath(owner, name)}/knowledge/stats`;
  try {
    const team = await getJson<{ items: StatsRow[] }>(`${base}/team`);
    return { of: "team", byId: new Map(team.items.map((r) => [r.id, r])) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 402) throw error;
    const me = await getJson<{ items: StatsRow[] }>(`${base}/me`);
    return { of: "me", byId: new Map(me.items.map((r) => [r.id, r])) };
  }
}
