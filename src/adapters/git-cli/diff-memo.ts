/**
 * A push's knowledge diff, kept from `pre-receive` for the heal that follows it (seed 004,
 * "Разбор при отправке": parse on push, then index the default branch). Both run
 * `git diff-tree` of the same two commits; on a flat folder of 100k entries that is 70–80 ms
 * each. `pre-receive` keeps git's raw output in `<bare repository>/lore-diffs/`, and the
 * heal (`post-receive`, or `lore serve` indexing the push) takes it — read once, then
 * removed. The output of `diff-tree` is a function of the two commits and the folder alone,
 * which the file's name and first line both hold, so a kept diff is never a wrong one; a
 * diff nobody took (a refused push, a feature branch) is removed an hour later by the next
 * write. Any failure to keep or take one is ignored: git is asked instead.
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The folder of kept diffs inside a bare repository. */
export const DIFF_MEMO_FOLDER = "lore-diffs";

/** How long a kept diff may wait to be taken, ms. */
export const DIFF_MEMO_MAX_AGE_MS = 60 * 60 * 1000;

/** The largest diff kept, bytes (git's raw output): larger ones are asked of git again. */
export const DIFF_MEMO_MAX_BYTES = 8 * 1024 * 1024;

/** Where the diff of `from`..`to` under `folder` is kept, and the line that names it. */
function memoOf(gitDir: string, from: string, to: string, folder: string) {
  const header = `${from} ${to} ${folder}\n`;
  const name = createHash("sha256").update(header).digest("hex").slice(0, 40);
  return { file: join(gitDir, DIFF_MEMO_FOLDER, name), header: Buffer.from(header, "utf8") };
}

/**
 * Takes the kept diff of two commits, if any: its raw `diff-tree` output, the file removed.
 *
 * @param gitDir - the bare repository.
 * @param from - the old commit.
 * @param to - the new commit.
 * @param folder - the path prefix the diff was limited to.
 * @returns the bytes git printed, or `undefined` (none kept, unreadable, another diff's).
 */
export async function takeDiffMemo(
  gitDir: string,
  from: string,
  to: string,
  folder: string,
): Promise<Buffer | undefined> {
  const { file, header } = memoOf(gitDir, from, to, folder);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  await unlink(file).catch(() => undefined);
  return bytes.subarray(0, header.length).equals(header)
    ? bytes.subarray(header.length)
    : undefined;
}

/**
 * Keeps the raw `diff-tree` output of two commits for {@link takeDiffMemo} (written under a
 * random name, then renamed), and removes kept diffs older than {@link DIFF_MEMO_MAX_AGE_MS}.
 * Never throws.
 *
 * @param gitDir - the bare repository.
 * @param from - the old commit.
 * @param to - the new commit.
 * @param folder - the path prefix the diff was limited to.
 * @param raw - what git printed.
 * @param now - the current time, ms since the epoch.
 */
export async function keepDiffMemo(
  gitDir: string,
  from: string,
  to: string,
  folder: string,
  raw: Buffer,
  now: number = Date.now(),
): Promise<void> {
  if (raw.length > DIFF_MEMO_MAX_BYTES) return;
  const { file, header } = memoOf(gitDir, from, to, folder);
  const temp = `${file}.${randomBytes(8).toString("hex")}.tmp`;
  try {
    await mkdir(join(gitDir, DIFF_MEMO_FOLDER), { recursive: true, mode: 0o700 });
    await writeFile(temp, Buffer.concat([header, raw]), { flag: "wx", mode: 0o600 });
    await rename(temp, file);
  } catch {
    await unlink(temp).catch(() => undefined);
    return;
  }
  await pruneDiffMemos(join(gitDir, DIFF_MEMO_FOLDER), now);
}

/** Removes kept diffs (and stray temporary files) older than the limit. */
async function pruneDiffMemos(folder: string, now: number): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(folder, name);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && now - info.mtimeMs > DIFF_MEMO_MAX_AGE_MS) {
      await unlink(path).catch(() => undefined);
    }
  }
}
