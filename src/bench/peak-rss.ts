/**
 * Peak resident set size of another process, read from Linux's `/proc/<pid>/status`
 * (`VmHWM`, the kernel's high-water mark of the process's RSS). The benchmark uses it for
 * processes it spawns but cannot ask (`lore mcp`, qmd): Node gives no rusage of children.
 */
import { readFileSync } from "node:fs";

/**
 * `VmHWM` of `pid` in bytes, or `undefined` when it cannot be read (not Linux, or the
 * process is gone).
 */
export function readPeakRss(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match === null ? undefined : Number(match[1]) * 1024;
  } catch {
    return undefined;
  }
}

/** A watcher of one process's peak RSS; see {@link watchPeakRss}. */
export interface PeakRssWatch {
  /** Stops polling and returns the highest `VmHWM` seen, bytes (0 when never read). */
  stop(): number;
}

/**
 * Polls `VmHWM` of `pid` every `intervalMs` (default 50) until stopped. `VmHWM` only grows,
 * so the last read before the process exits misses at most one interval's growth.
 */
export function watchPeakRss(pid: number, intervalMs = 50): PeakRssWatch {
  let peak = 0;
  const poll = (): void => {
    const now = readPeakRss(pid);
    if (now !== undefined && now > peak) peak = now;
  };
  poll();
  const timer = setInterval(poll, intervalMs);
  timer.unref();
  return {
    stop(): number {
      poll();
      clearInterval(timer);
      return peak;
    },
  };
}
