/**
 * The index-build FLOOR of the benchmark: the least work any indexer of
 * the same repository must do — list the knowledge blobs (`git ls-tree`), read them through
 * one pipelined `git cat-file --batch` (a raw child process, not Lore's adapter), and insert
 * their text into a bare FTS5 table (`unicode61`) of a fresh SQLite file, in transactions of
 * at most 10 MB (the parse-batch limit Lore also honours). No parsing, no normalisation.
 */
import { spawn, spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { KNOWLEDGE_PREFIX } from "../services/indexing/index-knowledge.js";
import { benchGitEnv } from "./generate-entries.js";

/** What the floor did. */
export interface FloorResult {
  /** Blobs read and inserted. */
  files: number;
  /** Bytes read from git. */
  bytes: number;
  /** Wall time of ls-tree + cat-file + inserts, ms. */
  ms: number;
  /** Time spent inside the FTS5 insert transactions, ms. */
  insertMs: number;
}

/** Lists `<sha>` of every `.md` blob under the knowledge folder at `commit`. */
export function listKnowledgeShas(repoDir: string, commit: string): string[] {
  const r = spawnSync(
    "git",
    ["ls-tree", "-r", "-z", "--full-tree", commit, "--", KNOWLEDGE_PREFIX],
    {
      cwd: repoDir,
      env: benchGitEnv(),
      encoding: "utf8",
      maxBuffer: 1 << 30,
    },
  );
  if (r.status !== 0) throw new Error(`git ls-tree failed: ${r.stderr}`);
  const shas: string[] = [];
  for (const line of r.stdout.split("\0")) {
    // `<mode> blob <sha>\t<path>`
    const tab = line.indexOf("\t");
    if (tab < 0 || !line.endsWith(".md")) continue;
    const meta = line.slice(0, tab).split(" ");
    if (meta[1] === "blob") shas.push(meta[2] as string);
  }
  return shas;
}

/**
 * Reads the blobs through one `git cat-file --batch`, all requests written up front and the
 * answers parsed as they stream back; calls `onBlob` for each in request order.
 *
 * @throws Error when git fails or answers `missing`.
 */
export async function readBlobsRaw(
  repoDir: string,
  shas: readonly string[],
  onBlob: (bytes: Buffer) => void,
): Promise<void> {
  const child = spawn("git", ["cat-file", "--batch"], {
    cwd: repoDir,
    env: benchGitEnv(),
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(`${shas.join("\n")}\n`);
  let pending: Buffer = Buffer.alloc(0);
  let need = -1; // bytes of the current blob body (+1 for its LF), -1 = reading a header
  let seen = 0;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    for (;;) {
      if (need < 0) {
        const lf = pending.indexOf(10, at);
        if (lf < 0) break;
        const header = pending.toString("latin1", at, lf);
        if (header.endsWith(" missing")) throw new Error(`blob missing: ${header}`);
        need = Number(header.slice(header.lastIndexOf(" ") + 1)) + 1;
        at = lf + 1;
      }
      if (pending.length - at < need) break;
      onBlob(pending.subarray(at, at + need - 1));
      seen++;
      at += need;
      need = -1;
    }
    pending = at === pending.length ? Buffer.alloc(0) : pending.subarray(at);
  }
  const code = await new Promise<number>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.on("close", (c) => resolve(c ?? -1)),
  );
  if (code !== 0 || seen !== shas.length) {
    throw new Error(`git cat-file --batch ended with ${code} after ${seen}/${shas.length} blobs`);
  }
}

/**
 * Runs the floor on `repoDir` at `commit` into a fresh database file `dbFile` (WAL,
 * `synchronous=NORMAL`, one FTS5 table `docs(body)` with `tokenize='unicode61'`).
 */
export async function runFloor(
  repoDir: string,
  commit: string,
  dbFile: string,
): Promise<FloorResult> {
  const started = performance.now();
  const db = new Database(dbFile);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61')");
  const insert = db.prepare("INSERT INTO docs(body) VALUES (?)");
  const insertAll = db.transaction((texts: string[]) => {
    for (const t of texts) insert.run(t);
  });
  const shas = listKnowledgeShas(repoDir, commit);
  let batch: string[] = [];
  let batchBytes = 0;
  let bytes = 0;
  let insertMs = 0;
  const flush = (): void => {
    const t0 = performance.now();
    insertAll(batch);
    insertMs += performance.now() - t0;
    batch = [];
    batchBytes = 0;
  };
  await readBlobsRaw(repoDir, shas, (blob) => {
    bytes += blob.length;
    batchBytes += blob.length;
    batch.push(blob.toString("utf8"));
    if (batchBytes >= 10 * 1024 * 1024) flush();
  });
  if (batch.length > 0) flush();
  db.close();
  return { files: shas.length, bytes, ms: performance.now() - started, insertMs };
}
