import { createHash } from "node:crypto";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { LIMITS } from "../../core/entry/entry.js";
import { escapeFileName, fileNameNotUtf8, isUtf8Name } from "../../core/entry/file-name.js";
import { LoreError } from "../../core/errors/lore-error.js";
import type { KnowledgeBlob } from "../../ports/git-repo.js";
import { comparePaths } from "./duplicate-ids.js";
import {
  type IndexKnowledgeOptions,
  type IndexReport,
  indexKnowledge,
  KNOWLEDGE_PREFIX,
} from "./index-knowledge.js";

/**
 * Options of {@link indexFolder}: those of {@link indexKnowledge} (`index`, `repoName`,
 * `lang`, `onProgress`, `maxDiagnostics`, `batchBytes`) plus the folder.
 */
export interface IndexFolderOptions extends Omit<IndexKnowledgeOptions, "source" | "commit"> {
  /** The folder holding `.gitriver/knowledge/` (not a git repository). */
  dir: string;
}

/** Files hashed at once while listing. */
const HASH_CONCURRENCY = 32;

/**
 * Git's blob object name of some bytes: sha1 of `blob <size>\0<bytes>`, so a folder and a
 * commit of the same files give the same shas.
 *
 * @param bytes - the file's content.
 * @returns 40 lower-case hex digits.
 */
export function gitBlobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/**
 * Indexes the entry files of a plain folder (the index: "Index a folder or a git
 * repository"): the `.md` files under `<dir>/.gitriver/knowledge/`, found by a walk that
 * follows no symbolic link (links are left out, so nothing outside the folder is read).
 * Each file's git blob sha stands in for the blob sha, so the incremental rules of
 * {@link indexKnowledge} hold: every file is read to hash it (one over the 64 KB entry limit
 * only has its size read), only changed ones are parsed.
 * Paths are stored relative to `dir`, `/`-separated. The report's `commit` is `null`.
 *
 * @throws LoreError `path_not_found` when `dir` does not exist; `not_a_repository` when it
 *   has no `.gitriver/knowledge/` folder (or that is a symbolic link).
 */
export async function indexFolder(options: IndexFolderOptions): Promise<IndexReport> {
  const root = resolve(options.dir);
  const rootInfo = await lstat(root).catch(() => null);
  if (rootInfo === null) throw new LoreError("path_not_found", { path: options.dir });
  let folder = root;
  for (const part of KNOWLEDGE_PREFIX.split("/").filter((p) => p.length > 0)) {
    folder = join(folder, part);
    const info = await lstat(folder).catch(() => null);
    if (info === null || !info.isDirectory()) {
      throw new LoreError("not_a_repository", { path: options.dir });
    }
  }
  const { dir: _dir, ...shared } = options;
  return indexKnowledge({
    ...shared,
    source: { list: () => listFolder(root), read: (blobs) => readFolder(root, blobs) },
    commit: null,
  });
}

/** The `.md` regular files under the knowledge folder, sorted by path, hashed. */
async function listFolder(root: string): Promise<KnowledgeBlob[]> {
  const paths: string[] = [];
  // A name that is not UTF-8 cannot be a path of the index: reported with its name escaped.
  const badNames: KnowledgeBlob[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(join(root, relative), {
      withFileTypes: true,
      encoding: "buffer",
    });
    for (const entry of entries) {
      if (!isUtf8Name(entry.name)) {
        if (
          entry.isDirectory() ||
          (entry.isFile() && entry.name.toString("latin1").endsWith(".md"))
        ) {
          const path = `${relative}${escapeFileName(entry.name)}${entry.isDirectory() ? "/" : ""}`;
          const sha = createHash("sha1").update(`bad name ${path}`).digest("hex");
          badNames.push({ path, sha, size: 0, refused: fileNameNotUtf8(path) });
        }
        continue;
      }
      const name = entry.name.toString("utf8");
      const path = `${relative}${name}`;
      if (entry.isDirectory()) await walk(`${path}/`);
      else if (entry.isFile() && name.endsWith(".md")) paths.push(path);
      // symbolic links, sockets, devices: not entries, never followed
    }
  };
  await walk(KNOWLEDGE_PREFIX);
  paths.sort(comparePaths);
  const blobs: (KnowledgeBlob | null)[] = new Array(paths.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const position = next++;
      const path = paths[position] as string;
      const info = await lstat(join(root, path)).catch(() => null);
      if (info === null) continue; // gone since the walk
      if (info.size > LIMITS.fileBytes) {
        // Never read whole (it may be gigabytes): the indexer skips it as file_too_large by
        // its size. A stand-in sha from size and mtime still tells when it changes.
        const sha = createHash("sha1")
          .update(`oversize ${info.size} ${info.mtimeMs}`)
          .digest("hex");
        blobs[position] = { path, sha, size: info.size };
        continue;
      }
      const bytes = await readFile(join(root, path)).catch(() => null);
      if (bytes !== null) blobs[position] = { path, sha: gitBlobSha(bytes), size: bytes.length };
    }
  };
  await Promise.all(Array.from({ length: HASH_CONCURRENCY }, worker));
  const listed = blobs.filter((blob): blob is KnowledgeBlob => blob !== null);
  return badNames.length === 0
    ? listed
    : [...listed, ...badNames].sort((a, b) => comparePaths(a.path, b.path));
}

/** Reads files again in order; a file changed since listing is given with its new sha. */
async function* readFolder(
  root: string,
  blobs: readonly KnowledgeBlob[],
): AsyncIterable<{ blob: KnowledgeBlob; bytes: Uint8Array }> {
  for (const blob of blobs) {
    const bytes = await readFile(join(root, blob.path)).catch(() => null);
    if (bytes === null) continue; // gone since listing: dropped at the next run
    const sha = gitBlobSha(bytes);
    yield { blob: sha === blob.sha ? blob : { ...blob, sha, size: bytes.length }, bytes };
  }
}
