/**
 * Access levels per repository, for users and groups (seed 004, "Интерфейс": knowledge
 * rights follow repository rights): `lore access grant|revoke|list`.
 */
import {
  formatSubjectName,
  parseSubjectName,
  type SubjectName,
} from "../../core/access/parse-subject.js";
import type { AccessLevel } from "../../core/access/rights.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { RepoRecord, ServerStore, Subject } from "../../ports/server-store.js";
import { requireGroup } from "./groups.js";
import { requireUser } from "./users.js";

/**
 * The hosted repository of this name (for administration: no rights check).
 *
 * @throws LoreError `repo_not_found`.
 */
export async function requireRepo(store: ServerStore, fullName: string): Promise<RepoRecord> {
  const repo = await store.getRepo(fullName);
  if (repo === undefined) throw new LoreError("repo_not_found", { repo: fullName });
  return repo;
}

/**
 * The stored subject of `anna` or `group:leads`.
 *
 * @throws LoreError `invalid_input`, `user_not_found`, `group_not_found`.
 */
export async function resolveSubject(store: ServerStore, text: string): Promise<Subject> {
  const subject = parseSubjectName(text);
  if (subject.kind === "group")
    return { kind: "group", id: (await requireGroup(store, subject.name)).id };
  return { kind: "user", id: (await requireUser(store, subject.name)).id };
}

/**
 * Sets the level of a user or group on a repository (replacing the one they had).
 *
 * @throws LoreError `invalid_input`, `user_not_found`, `group_not_found`, `repo_not_found`.
 */
export async function grantAccess(
  store: ServerStore,
  request: { subject: string; repo: string; level: AccessLevel },
): Promise<void> {
  const subject = await resolveSubject(store, request.subject);
  const repo = await requireRepo(store, request.repo);
  await store.grant({ repoId: repo.id, subject, level: request.level });
}

/**
 * Takes a user's or group's grant on a repository away.
 *
 * @returns false when they had none.
 * @throws LoreError as {@link grantAccess}.
 */
export async function revokeAccess(
  store: ServerStore,
  request: { subject: string; repo: string },
): Promise<boolean> {
  const subject = await resolveSubject(store, request.subject);
  const repo = await requireRepo(store, request.repo);
  return store.revoke({ repoId: repo.id, subject });
}

/** One grant as `lore access list` shows it. */
export interface ListedGrant {
  /** `anna` or `group:leads`. */
  subject: string;
  level: AccessLevel;
}

/**
 * The grants on a repository, users first, then groups, each by name.
 *
 * @throws LoreError `repo_not_found`.
 */
export async function listAccess(
  store: ServerStore,
  fullName: string,
): Promise<{ repo: RepoRecord; grants: ListedGrant[] }> {
  const repo = await requireRepo(store, fullName);
  const names = await subjectNames(store);
  const grants = (await store.listGrants(repo.id)).map((grant) => ({
    subject: names(grant.subject),
    level: grant.level,
  }));
  grants.sort((a, b) => order(a.subject) - order(b.subject) || a.subject.localeCompare(b.subject));
  return { repo, grants };
}

function order(subject: string): number {
  return subject.startsWith("group:") ? 1 : 0;
}

/** A function naming stored subjects (`anna`, `group:leads`), read once. */
export async function subjectNames(store: ServerStore): Promise<(subject: Subject) => string> {
  const users = new Map((await store.listUsers()).map((u) => [u.id, u.name]));
  const groups = new Map((await store.listGroups()).map((g) => [g.id, g.name]));
  return (subject) => {
    const named: SubjectName =
      subject.kind === "user"
        ? { kind: "user", name: users.get(subject.id) ?? `#${subject.id}` }
        : { kind: "group", name: groups.get(subject.id) ?? `#${subject.id}` };
    return formatSubjectName(named);
  };
}
