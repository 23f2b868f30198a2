import type { Diagnostic } from "../entry/diagnostic.js";
import { escapeFileName, fileNameNotUtf8 } from "../entry/file-name.js";

/**
 * One knowledge file a ref update changed (seed 004, "Разбор при отправке": only the files
 * the push changed are parsed, renames included).
 */
export interface KnowledgeChange {
  /** `added`, `modified`, `deleted`, or `renamed` (same content or similar, new path). */
  kind: "added" | "modified" | "deleted" | "renamed";
  /**
   * The file's path after the update (for `deleted`, its path before), relative to the
   * repository root: git's bytes as UTF-8, or, when they are not UTF-8, with `\xNN`
   * escapes (then `refused` is set).
   */
  path: string;
  /** For `renamed`: the path before. */
  oldPath?: string;
  /** The blob after the update (40 or 64 hex); `null` for `deleted`. Content is read by it. */
  sha: string | null;
  /**
   * `file_name_not_utf8` when the path is not UTF-8: the file is reported under its escaped
   * name and never read by name.
   */
  refused?: Diagnostic;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A path of git's bytes (latin1 text) as a change names it. */
function decodePath(raw: string): { path: string; refused?: Diagnostic } {
  const bytes = Buffer.from(raw, "latin1");
  try {
    return { path: UTF8.decode(bytes) };
  } catch {
    const path = escapeFileName(bytes);
    return { path, refused: fileNameNotUtf8(path) };
  }
}

/** A regular file (not a symbolic link, not a submodule) named `*.md` under the folder. */
function isEntryFile(mode: string, raw: string | undefined, folder: string): raw is string {
  return (
    raw !== undefined &&
    (mode === "100644" || mode === "100755") &&
    raw.startsWith(folder) &&
    raw.endsWith(".md")
  );
}

const NULL_SHA = /^0+$/;

/**
 * Parses `git diff-tree -r -z -M --raw` output into the knowledge files changed:
 * records `:<mode> SP <mode> SP <sha> SP <sha> SP <status> NUL <path> NUL [<path> NUL]`.
 * A side that is not an entry file (another folder, not `.md`, a symbolic link) does not
 * count: a rename out of the folder is a deletion, into it an addition.
 *
 * @param text - the whole output, decoded as latin1 (one character per byte).
 * @param folder - the knowledge folder, e.g. `.gitriver/knowledge/` (ASCII, ending in `/`).
 * @returns the changes in git's order (by path).
 */
export function parseDiffTreeRaw(text: string, folder: string): KnowledgeChange[] {
  const fields = text.split("\0");
  const changes: KnowledgeChange[] = [];
  let i = 0;
  while (i < fields.length) {
    const head = fields[i++] ?? "";
    if (!head.startsWith(":")) continue;
    const [oldMode = "", newMode = "", oldSha = "", newSha = "", status = ""] = head
      .slice(1)
      .split(" ");
    const letter = status.charAt(0);
    const first = fields[i++];
    const second = letter === "R" || letter === "C" ? fields[i++] : undefined;
    const before = letter === "A" ? undefined : first;
    const after = letter === "D" ? undefined : (second ?? first);
    const oldIs = isEntryFile(oldMode, before, folder) && !NULL_SHA.test(oldSha);
    const newIs = isEntryFile(newMode, after, folder) && !NULL_SHA.test(newSha);
    const add = (kind: KnowledgeChange["kind"], raw: string, sha: string | null, from?: string) => {
      const change: KnowledgeChange = { kind, ...decodePath(raw), sha };
      if (from !== undefined) change.oldPath = decodePath(from).path;
      changes.push(change);
    };
    if (letter === "C") {
      if (newIs) add("added", after as string, newSha);
      continue;
    }
    if (oldIs && newIs && before !== after) add("renamed", after as string, newSha, before);
    else if (oldIs && newIs) add("modified", after as string, newSha);
    else if (oldIs) add("deleted", before as string, null);
    else if (newIs) add("added", after as string, newSha);
  }
  return changes;
}
