/**
 * What the merge-request services need (seed 004, "Как знание выходит наружу"): the server's
 * records, the git plumbing of a hosted repository, the clock, and the parse a merge runs
 * like a push. Bound in `main/server-api.ts`; delivery binds the same to open its requests.
 */
import { LoreError } from "../../core/errors/lore-error.js";
import type { MergeGit } from "../../ports/merge-git.js";
import type { MergeRequestRecord, RepoRecord, ServerStore } from "../../ports/server-store.js";

/** The collaborators of the merge-request services. */
export interface MrDeps {
  store: ServerStore;
  /** The git plumbing of one hosted repository (its bare folder). */
  gitOf: (repo: RepoRecord) => MergeGit;
  /** The clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /**
   * Runs after a merge moved `branch` to `commit` (seed 004, "Разбор при отправке": «слияние
   * запроса через интерфейс … тоже разбирается»): the parse and index upkeep of a push
   * (`healRepoIndex`). A failure is logged, never undoes the merge. Default: nothing.
   */
  afterMerge?: (repo: RepoRecord, branch: string, commit: string) => Promise<void>;
  /** Writes a line to the server's log. Default: nothing. */
  log?: (line: string) => void;
}

/** Who acts on a request: a user of the server (a `Principal` is one). */
export interface MrActor {
  userId: number;
  user: string;
}

/**
 * The stored request `number` of a repository.
 *
 * @throws LoreError `mr_not_found`.
 */
export async function requireMergeRequest(
  store: ServerStore,
  repo: RepoRecord,
  number: number,
): Promise<MergeRequestRecord> {
  const found =
    Number.isSafeInteger(number) && number > 0
      ? await store.getMergeRequest(repo.id, number)
      : undefined;
  if (found === undefined) {
    throw new LoreError("mr_not_found", { number, repo: repo.fullName });
  }
  return found;
}

/**
 * Refuses a request that is not open.
 *
 * @throws LoreError `mr_not_open` (`data.state`).
 */
export function requireOpen(request: MergeRequestRecord): void {
  if (request.state === "open") return;
  const ru = request.state === "merged" ? "слит" : "закрыт";
  throw new LoreError(
    "mr_not_open",
    { number: request.number, state: request.state, state_ru: ru },
    { data: { number: request.number, state: request.state } },
  );
}

/** A user's name by id, loaded once per call (`#<id>` for a removed user). */
export async function userNames(store: ServerStore): Promise<(id: number) => string> {
  const users = new Map((await store.listUsers()).map((user) => [user.id, user.name]));
  return (id) => users.get(id) ?? `#${id}`;
}

/** Per repository: the tail of its queue of state changes (merge, close, approve). */
const queues = new Map<number, Promise<unknown>>();

/**
 * Runs `job` after every earlier state change of the same repository in this process has
 * ended, so two merges (or a merge and a close) of one request never both proceed.
 *
 * @param repoId - the repository.
 * @param job - the change.
 */
export function oneAtATime<T>(repoId: number, job: () => Promise<T>): Promise<T> {
  const tail = queues.get(repoId) ?? Promise.resolve();
  const run = tail.then(job, job);
  const settled = run.catch(() => undefined);
  queues.set(repoId, settled);
  void settled.then(() => {
    if (queues.get(repoId) === settled) queues.delete(repoId);
  });
  return run;
}
