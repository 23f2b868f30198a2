/**
 * One index build in a process of its own, so its wall time and peak RSS are not mixed with
 * the rest of the benchmark ("peak RSS while indexing 100k").
 *
 * Usage: `node dist/bench/index-worker.js <lore|floor> <repoDir> <commit> <dbFile>`.
 * Prints one JSON line on stdout: {@link IndexWorkerResult}.
 */
import { readFileSync } from "node:fs";
import { runFloor } from "./floor-index.js";
import { indexRepoInto } from "./lore-under-test.js";

/** What the worker prints. */
export interface IndexWorkerResult {
  mode: "lore" | "floor";
  /** Files indexed (lore: entries stored plus files skipped with a report; floor: blobs). */
  files: number;
  /** Bytes of the entry files (floor: as read from git; lore: from the repository listing). */
  bytes: number;
  /** Wall time of the build, ms (from opening the database to closing it). */
  ms: number;
  /** Peak resident set size of this process, bytes (`process.resourceUsage().maxRSS`). */
  maxRssBytes: number;
  /**
   * CPU time of this process (user + system), ms, without its git children. On a shared
   * machine it is steadier than the wall time, which includes waiting for a core.
   */
  cpuMs: number;
  /**
   * CPU time of the main thread alone (user + system), ms, from Linux's
   * `/proc/thread-self/stat` (clock ticks, 10 ms); `null` elsewhere. With an analysis worker
   * thread it tells the main thread's share (reading git, writing SQLite) from the worker's.
   */
  mainCpuMs: number | null;
  /** Extra figures of the mode (e.g. the floor's time inside FTS5 inserts). */
  detail: Record<string, unknown>;
}

/** The main thread's CPU time, ms (`utime + stime` of `/proc/thread-self/stat`), or `null`. */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "latin1");
    // Fields after the command name (which may hold spaces) start at `state` (field 3).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]); // fields 14 and 15: utime, stime
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const [mode, repoDir, commit, dbFile] = process.argv.slice(2);
  if ((mode !== "lore" && mode !== "floor") || !repoDir || !commit || !dbFile) {
    throw new Error("usage: index-worker.js <lore|floor> <repoDir> <commit> <dbFile>");
  }
  let result: Omit<IndexWorkerResult, "maxRssBytes" | "cpuMs" | "mainCpuMs">;
  if (mode === "floor") {
    const floor = await runFloor(repoDir, commit, dbFile);
    result = {
      mode,
      files: floor.files,
      bytes: floor.bytes,
      ms: floor.ms,
      detail: { insertMs: floor.insertMs },
    };
  } else {
    const lore = await indexRepoInto(repoDir, commit, dbFile);
    result = { mode, files: lore.files, bytes: lore.bytes, ms: lore.ms, detail: lore.detail };
  }
  const maxRssBytes = process.resourceUsage().maxRSS * 1024;
  const cpu = process.cpuUsage();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const mainCpuMs = mainThreadCpuMs();
  process.stdout.write(`${JSON.stringify({ ...result, maxRssBytes, cpuMs, mainCpuMs })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
