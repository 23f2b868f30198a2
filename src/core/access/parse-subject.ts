/**
 * Reading who a grant or a branch rule is for, and the access level, from a command line
 * (`lore access grant anna acme/app write`, `group:leads`). Pure.
 */
import { LoreError } from "../errors/lore-error.js";
import { nearestKey } from "../text/nearest-key.js";
import { ACCESS_LEVELS, type AccessLevel } from "./rights.js";

/** A user or a group by name: `anna` or `group:leads`. */
export type SubjectName = { kind: "user"; name: string } | { kind: "group"; name: string };

/** The prefix that marks a group where a user or a group may be named. */
export const GROUP_PREFIX = "group:";

/**
 * Reads `anna` (a user) or `group:leads` (a group). Names themselves are validated where
 * they are looked up.
 *
 * @throws LoreError `invalid_input` for an empty name.
 */
export function parseSubjectName(text: string): SubjectName {
  const isGroup = text.startsWith(GROUP_PREFIX);
  const name = isGroup ? text.slice(GROUP_PREFIX.length) : text;
  if (name.length === 0) {
    throw new LoreError("invalid_input", {
      reason: "name a user (anna) or a group (group:leads)",
      reason_ru: "укажите пользователя (anna) или группу (group:leads)",
    });
  }
  return isGroup ? { kind: "group", name } : { kind: "user", name };
}

/** Writes a subject back as {@link parseSubjectName} reads it. */
export function formatSubjectName(subject: SubjectName): string {
  return subject.kind === "group" ? `${GROUP_PREFIX}${subject.name}` : subject.name;
}

/**
 * Reads an access level: `read`, `write` or `admin`.
 *
 * @throws LoreError `invalid_input` naming the nearest level and the three.
 */
export function parseAccessLevel(text: string): AccessLevel {
  if ((ACCESS_LEVELS as readonly string[]).includes(text)) return text as AccessLevel;
  const near = nearestKey(text, ACCESS_LEVELS);
  const known = ACCESS_LEVELS.join(", ");
  throw new LoreError("invalid_input", {
    reason: `unknown access level ${JSON.stringify(text)}; ${near === undefined ? "" : `did you mean ${near}? `}levels: ${known}`,
    reason_ru: `неизвестный уровень доступа ${JSON.stringify(text)}; ${near === undefined ? "" : `может быть, ${near}? `}уровни: ${known}`,
  });
}
