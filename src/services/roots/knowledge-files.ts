/**
 * Reading and writing files of knowledge roots (seed 003, ADR 015 "Решение (MCP)": reads
 * from any root, writes only to primary; knowledge roots, “Resolution and access”, `read_file` and
 * `write_file`). Every path goes through `core/roots/knowledge-path.ts` and then `realpath`, so
 * no `..`, absolute path, drive letter, NUL byte or symbolic link leads outside the root.
 */
import { randomBytes } from "node:crypto";
import { constants, existsSync } from "node:fs";
import {
  chmod,
  link,
  lstat,
  mkdir,
  open,
  readFile,
  realpath,
  rename,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, sep } from "node:path";
import { escapeNameText, unsafeNameCharacter } from "../../core/entry/file-name.js";
import { LoreError } from "../../core/errors/lore-error.js";
import { pathOutsideRoot, requireKnowledgePath } from "../../core/roots/knowledge-path.js";
import { type KnowledgeRoot, PRIMARY_ROOT_ID } from "../../core/roots/knowledge-roots.js";
import { type RootArgs, requireWritable, resolveRoot } from "../../core/roots/root-resolution.js";
import { matchRegistry, parseRegistry, REGISTRY_PATH } from "../../core/roots/roots-registry.js";
import { holdLockFile, lockFilePath } from "../files/lock-file.js";
import { refuseSecrets } from "../safety/scan-secrets.js";

/** The folder of a root that holds its notes. */
export const KNOWLEDGE_DIR = "knowledge";

/** Largest file `read_file` returns and `write_file` writes, bytes (1 MiB). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Longest name of one path segment, UTF-8 bytes (NAME_MAX of common file systems). */
export const MAX_NAME_BYTES = 255;

/** Whether open folders can be reached through their descriptors (`/proc/self/fd/N`, Linux). */
const PIN_FOLDERS = process.platform === "linux" && existsSync("/proc/self/fd");

/** How long a write waits for another writer of the same file, ms. */
const LOCK_WAIT_MS = 10_000;

/** A lock file older than this is left over by a killed writer and is taken over, ms. */
const LOCK_STALE_MS = 30_000;

/** The roots the services work on, and whether unconfigured `knowledge_path`s may be read. */
export interface RootsContext {
  /** The configured roots, paths absolute (see `main/knowledge-roots.ts`). */
  roots: readonly KnowledgeRoot[];
  /** False over HTTP: only configured roots are read. Default: true. */
  allowUnconfiguredPath?: boolean;
  /**
   * The folder of the write locks, outside every root so that no user file can collide
   * with a lock (`main/` passes `$XDG_STATE_HOME/lore/locks`). Default: `lore-<uid>/locks`
   * in the OS temp folder.
   */
  lockDir?: string;
}

/** Input of {@link readKnowledgeFile}. */
export interface ReadFileInput extends RootArgs {
  /** Path relative to the root's `knowledge/`. */
  file_path: string;
}

/** Answer of {@link readKnowledgeFile}. */
export interface ReadFileAnswer {
  /** The root id the text came from (`primary`, `group`, … or `path`). */
  root: string;
  kind: KnowledgeRoot["kind"];
  /** The clean path relative to `knowledge/`. */
  file_path: string;
  /** The text; `null` when the file is not in the root asked and the registry points elsewhere. */
  text: string | null;
  /** UTF-8 bytes of `text` (0 when null). */
  bytes: number;
  /**
   * When no root was named and the registry says the file lives in another root: that root
   * and the registry line (the registry is the pointer).
   */
  lives_in?: { root: string; registry_line: number; entry: string };
}

/** Input of {@link writeKnowledgeFile}. */
export interface WriteFileInput extends RootArgs {
  file_path: string;
  /** The text to write (UTF-8), at most {@link MAX_FILE_BYTES}. */
  content: string;
  /** `create` (refused when the file exists), `replace` (whole file), `append`. Default `create`. */
  mode?: "create" | "replace" | "append";
}

/** Answer of {@link writeKnowledgeFile}. */
export interface WriteFileAnswer {
  root: string;
  file_path: string;
  mode: "create" | "replace" | "append";
  /** Whether the file did not exist before. */
  created: boolean;
  /** The file's size after the write, bytes. */
  bytes: number;
}

/**
 * Reads a file of a root. With no root named, the primary root is read; when the registry
 * (`knowledge/work/local/knowledge-roots-index-v1.md` in primary) says the file lives in
 * another root, the answer carries `lives_in`, and `text` is `null` when primary has no
 * such file.
 *
 * @param ctx - the roots.
 * @param input - `file_path` and the root arguments.
 * @throws LoreError `root_args_conflict`, `unknown_root`, `no_primary_root`,
 *   `root_not_configured`, `invalid_input`, `path_outside_root` (incl. a symbolic link out
 *   of the root), `root_missing`, `path_not_found`, `file_too_large`.
 */
export async function readKnowledgeFile(
  ctx: RootsContext,
  input: ReadFileInput,
): Promise<ReadFileAnswer> {
  const named = hasRootArgs(input);
  const root = resolveRoot(ctx.roots, input, rootOptions(ctx));
  const path = requireSaneNames(requireKnowledgePath(input.file_path, root.id));
  let livesIn: ReadFileAnswer["lives_in"];
  if (!named && root.kind === "primary") {
    const registry = await loadRegistry(root);
    const entry = registry === undefined ? undefined : matchRegistry(registry.entries, path);
    if (entry !== undefined && entry.root !== PRIMARY_ROOT_ID) {
      livesIn = { root: entry.root, registry_line: entry.line, entry: entry.text };
    }
  }
  const base = await knowledgeFolder(root);
  const file = join(base, ...path.split("/"));
  const real = await realpath(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    if (error.code === "ENAMETOOLONG") throw nameTooLong(path);
    throw error;
  });
  if (real === null) {
    if (livesIn !== undefined) {
      return {
        root: root.id,
        kind: root.kind,
        file_path: path,
        text: null,
        bytes: 0,
        lives_in: livesIn,
      };
    }
    throw new LoreError(
      "path_not_found",
      { path: `${root.id}:${path}` },
      { data: { root: root.id, file_path: path } },
    );
  }
  if (!isInside(base, real)) throw pathOutsideRoot(input.file_path, root.id, "symlink_escape");
  const info = await lstat(real);
  if (!info.isFile()) {
    throw new LoreError(
      "path_not_found",
      { path: `${root.id}:${path}` },
      { data: { root: root.id, file_path: path } },
    );
  }
  if (info.size > MAX_FILE_BYTES) {
    throw new LoreError("invalid_input", {
      reason: `${path} is ${info.size} bytes, over the ${MAX_FILE_BYTES}-byte limit of read_file`,
      reason_ru: `${path} занимает ${info.size} байт, больше предела read_file (${MAX_FILE_BYTES} байт)`,
    });
  }
  const text = await readFile(real, "utf8");
  const answer: ReadFileAnswer = {
    root: root.id,
    kind: root.kind,
    file_path: path,
    text,
    bytes: Buffer.byteLength(text),
  };
  if (livesIn !== undefined) answer.lives_in = livesIn;
  return answer;
}

/**
 * Writes a file of the primary root atomically (a temp file in the same folder, then a
 * rename; `create` links the temp file so an existing file is never replaced). A root
 * other than primary is refused before anything touches the disk.
 *
 * `replace` and `append` keep the file's permission bits (a 0600 file stays 0600); `append`
 * adds the content's UTF-8 bytes after the file's bytes as they are (bytes that are not
 * UTF-8 stay as they were) and is refused when the file would pass {@link MAX_FILE_BYTES},
 * the limit `read_file` reads. Concurrent writers of one file are serialised by a lock in
 * `ctx.lockDir`, so no append is lost.
 *
 * @param ctx - the roots.
 * @param input - see {@link WriteFileInput}.
 * @throws LoreError `read_only_root` (naming the root; nothing written), `root_args_conflict`,
 *   `unknown_root`, `no_primary_root`, `path_outside_root`, `root_missing`, `file_exists`
 *   (mode `create`), `invalid_input` (content over {@link MAX_FILE_BYTES}, an append that
 *   would pass it, a name holding a control character, a newline or a bidi formatting
 *   character), `file_busy` (another writer held the file for 10 s), `secret_detected`
 *   (`data: {line, rule}`, a line of `content`: the secret guard scans what is written;
 *   nothing is written).
 */
export async function writeKnowledgeFile(
  ctx: RootsContext,
  input: WriteFileInput,
): Promise<WriteFileAnswer> {
  const root = resolveRoot(ctx.roots, input, rootOptions(ctx));
  requireWritable(root);
  const path = requireWritableName(
    requireSaneNames(requireKnowledgePath(input.file_path, root.id)),
  );
  const mode = input.mode ?? "create";
  if (Buffer.byteLength(input.content) > MAX_FILE_BYTES) {
    throw new LoreError("invalid_input", {
      reason: `content is over the ${MAX_FILE_BYTES}-byte limit of write_file`,
      reason_ru: `content больше предела write_file (${MAX_FILE_BYTES} байт)`,
    });
  }
  await refuseSecrets(input.content);
  const rootReal = await realpath(root.path).catch(() => {
    throw new LoreError("root_missing", { root: root.id, path: root.path });
  });
  const base = join(rootReal, KNOWLEDGE_DIR);
  await mkdir(base, { recursive: true });
  const baseReal = await realpath(base);
  if (!isInside(rootReal, baseReal))
    throw pathOutsideRoot(input.file_path, root.id, "symlink_escape");
  const file = join(baseReal, ...path.split("/"));
  // The deepest folder that exists must be inside knowledge/ (a linked folder must not lead out).
  await checkParents(baseReal, dirname(file), input.file_path, root.id);
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw fsInputError(error, root.id, path);
  }
  // From here on the folder is pinned: opened once, then reached through its descriptor
  // (`/proc/self/fd/N`, Linux), so a folder swapped for a symbolic link after the checks
  // above cannot redirect the write; elsewhere `requireSameFolder` re-checks before the
  // file is put in place.
  const folder = await realpath(dirname(file)).catch((error: unknown) => {
    throw fsInputError(error, root.id, path);
  });
  const outside = () => pathOutsideRoot(input.file_path, root.id, "symlink_escape");
  if (!isInside(baseReal, folder)) throw outside();
  const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY).catch(
    (error: unknown) => {
      throw fsInputError(error, root.id, path);
    },
  );
  try {
    const dir = PIN_FOLDERS ? `/proc/self/fd/${handle.fd}` : folder;
    await requireSameFolder(dir, folder, baseReal, outside);
    const target = join(dir, basename(file));
    const lockDir = ctx.lockDir ?? defaultLockDir();
    const overLimit = (adding: number, size: number) =>
      new LoreError("invalid_input", {
        reason: `appending ${adding} bytes to ${root.id}:${path} (${size} bytes) would pass the ${MAX_FILE_BYTES}-byte limit of read_file; nothing was written`,
        reason_ru: `дописать ${adding} байт к ${root.id}:${path} (${size} байт) значит превысить предел read_file (${MAX_FILE_BYTES} байт); ничего не записано`,
      });
    return await withFileLock(lockDir, join(folder, basename(file)), async () => {
      const existing = await lstat(target).catch(() => null);
      if (existing?.isSymbolicLink()) {
        const linked = await realpath(target).catch(() => null);
        if (linked === null || !isInside(baseReal, linked)) throw outside();
      }
      if (existing !== null && mode === "create") {
        throw new LoreError(
          "file_exists",
          { path: `${root.id}:${path}` },
          { data: { root: root.id, file_path: path } },
        );
      }
      if (existing !== null && (await stat(target).catch(() => null))?.isFile() !== true) {
        throw new LoreError("invalid_input", {
          reason: `${root.id}:${path} is a folder, not a file`,
          reason_ru: `${root.id}:${path} — папка, а не файл`,
        });
      }
      const added = Buffer.from(input.content, "utf8");
      const appendTo = existing === null || mode !== "append" ? 0 : (await stat(target)).size;
      if (appendTo + added.length > MAX_FILE_BYTES) throw overLimit(added.length, appendTo);
      // The bytes as they are: a file that is not all UTF-8 keeps its other bytes.
      const before =
        mode === "append" && existing !== null ? await readFile(target) : Buffer.alloc(0);
      // The file may have grown since its size was read (another program than Lore).
      if (before.length + added.length > MAX_FILE_BYTES)
        throw overLimit(added.length, before.length);
      const bytes = before.length === 0 ? added : Buffer.concat([before, added]);
      // replace and append keep the file's permission bits (a 0600 note stays private).
      const keepMode = existing === null ? undefined : (await stat(target)).mode & 0o7777;
      const temp = join(dir, `.${randomBytes(6).toString("hex")}.lore-tmp`);
      await writeFile(temp, bytes, {
        flag: constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY,
        mode: keepMode === undefined ? 0o666 : 0o600,
      });
      try {
        if (keepMode !== undefined) await chmod(temp, keepMode);
        await requireSameFolder(dir, folder, baseReal, outside);
        if (mode === "create") {
          await link(temp, target).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "EEXIST") {
              throw new LoreError("file_exists", { path: `${root.id}:${path}` }, { cause: error });
            }
            throw error;
          });
          await unlink(temp).catch(() => {});
        } else {
          await rename(temp, target);
        }
      } catch (error) {
        await unlink(temp).catch(() => {});
        throw fsInputError(error, root.id, path);
      }
      return {
        root: root.id,
        file_path: path,
        mode,
        created: existing === null,
        bytes: bytes.length,
      };
    });
  } catch (error) {
    throw fsInputError(error, root.id, path);
  } finally {
    await handle.close();
  }
}

/**
 * Runs `fn` holding the write lock of one file, so that concurrent writers of the same
 * file — `append` reads, then renames — never lose each other's text. The lock is a file
 * in `lockDir` (created 0700) named by a hash of the file's real path: outside the root,
 * so no file a user writes can collide with it. A lock left by a killed writer is taken
 * over after {@link LOCK_STALE_MS} (or at once when its pid is gone).
 *
 * @throws LoreError `file_busy` when another writer holds it longer than {@link LOCK_WAIT_MS}.
 */
async function withFileLock<T>(preferred: string, file: string, fn: () => Promise<T>): Promise<T> {
  // A lock folder that cannot be made (a read-only runtime folder): the per-user temp one.
  const lockDir = await mkdir(preferred, { recursive: true, mode: 0o700 }).then(
    () => preferred,
    async () => {
      const fallback = defaultLockDir();
      await mkdir(fallback, { recursive: true, mode: 0o700 });
      return fallback;
    },
  );
  return holdLockFile(
    lockFilePath(lockDir, file),
    {
      waitMs: LOCK_WAIT_MS,
      staleMs: LOCK_STALE_MS,
      onTimeout: () =>
        new LoreError("file_busy", { path: basename(file), seconds: LOCK_WAIT_MS / 1000 }),
    },
    fn,
  );
}

/** The lock folder when none is configured: `lore-<uid>/locks` in the OS temp folder. */
function defaultLockDir(): string {
  return join(tmpdir(), `lore-${process.getuid?.() ?? "user"}`, "locks");
}

/** Refuses when `dir` no longer resolves to `folder` inside `base` (swapped for a link, moved). */
async function requireSameFolder(
  dir: string,
  folder: string,
  base: string,
  outside: () => LoreError,
): Promise<void> {
  const now = await realpath(dir).catch(() => null);
  if (now !== folder || !isInside(base, now)) throw outside();
}

/** Refuses a path segment longer than the file system allows (ENAMETOOLONG). */
function requireSaneNames(path: string): string {
  if (path.split("/").some((part) => Buffer.byteLength(part) > MAX_NAME_BYTES)) {
    throw nameTooLong(path);
  }
  return path;
}

/**
 * Refuses a name to be written that holds a newline, another control character or a bidi
 * formatting character: such names hide or fake what a reviewer and a listing show.
 */
function requireWritableName(path: string): string {
  const found = unsafeNameCharacter(path);
  if (found === undefined) return path;
  // Shown escaped, so the message itself is not turned around by the character.
  const shown = escapeNameText(path);
  const what = {
    newline: { en: "a newline", ru: "перевод строки" },
    control: { en: "a control character", ru: "управляющий символ" },
    bidi: { en: "a bidi formatting character", ru: "символ управления направлением текста" },
  }[found.kind];
  throw new LoreError(
    "invalid_input",
    {
      reason: `file_path “${shown}” holds ${what.en} (${found.codePoint}); choose a name without it`,
      reason_ru: `file_path «${shown}» содержит ${what.ru} (${found.codePoint}); выберите имя без него`,
    },
    { data: { file_path: shown, character: found.codePoint, kind: found.kind } },
  );
}

function nameTooLong(path: string): LoreError {
  const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
  return new LoreError("invalid_input", {
    reason: `file_path “${shown}” is too long for the file system (at most ${MAX_NAME_BYTES} bytes a name)`,
    reason_ru: `file_path «${shown}» слишком длинный для файловой системы (не больше ${MAX_NAME_BYTES} байт на имя)`,
  });
}

/** Maps file-system errors a caller's path can cause to `invalid_input`; others pass. */
function fsInputError(error: unknown, rootId: string, path: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENAMETOOLONG") return nameTooLong(path);
  if (code === "ENOENT") {
    // The folder went away while the file was being written (removed by another process).
    return new LoreError(
      "path_not_found",
      { path: `${rootId}:${path}` },
      { data: { root: rootId, file_path: path } },
    );
  }
  if (code === "ENOTDIR" || code === "EEXIST" || code === "EISDIR") {
    return new LoreError("invalid_input", {
      reason: `${rootId}:${path} cannot be written: a part of the path is a file, or the path is a folder`,
      reason_ru: `${rootId}:${path} нельзя записать: часть пути — файл, или путь — папка`,
    });
  }
  return error;
}

/**
 * Reads the registry of the primary root, when it exists.
 *
 * @param primary - the primary root.
 * @returns the parsed registry, or undefined when the file is absent.
 */
export async function loadRegistry(primary: KnowledgeRoot) {
  const text = await readFile(
    join(primary.path, KNOWLEDGE_DIR, ...REGISTRY_PATH.split("/")),
    "utf8",
  ).catch(() => null);
  return text === null ? undefined : parseRegistry(text);
}

/** The real path of a root's `knowledge/` folder. */
async function knowledgeFolder(root: KnowledgeRoot): Promise<string> {
  const rootReal = await realpath(root.path).catch(() => {
    throw new LoreError(
      "root_missing",
      { root: root.id, path: root.path },
      { data: { root: root.id } },
    );
  });
  const base = await realpath(join(rootReal, KNOWLEDGE_DIR)).catch(() => {
    throw new LoreError(
      "root_missing",
      { root: root.id, path: join(root.path, KNOWLEDGE_DIR) },
      { data: { root: root.id } },
    );
  });
  if (!isInside(rootReal, base)) throw pathOutsideRoot(KNOWLEDGE_DIR, root.id, "symlink_escape");
  return base;
}

async function checkParents(base: string, folder: string, filePath: string, rootId: string) {
  let current = folder;
  for (;;) {
    const real = await realpath(current).catch(() => null);
    if (real !== null) {
      if (!isInside(base, real)) throw pathOutsideRoot(filePath, rootId, "symlink_escape");
      return;
    }
    const up = dirname(current);
    if (up === current) return;
    current = up;
  }
}

/** Whether `child` is `parent` or under it (both real paths). */
function isInside(parent: string, child: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

function hasRootArgs(args: RootArgs): boolean {
  return (
    (args.knowledge_root_id !== undefined && args.knowledge_root_id.trim() !== "") ||
    (args.knowledge_path !== undefined && args.knowledge_path.trim() !== "")
  );
}

function rootOptions(ctx: RootsContext) {
  return ctx.allowUnconfiguredPath === false ? { allowUnconfiguredPath: false } : {};
}
