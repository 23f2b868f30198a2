import { afterEach, describe, expect, it, vi } from "vitest";
import type { KnowledgeChange } from "../../core/push/knowledge-changes.js";
import type { RefUpdate } from "../../core/push/ref-update.js";
import type { PushRepo } from "../../ports/push-repo.js";
import { preReceive, WARM_UP_AFTER_MS } from "./pre-receive.js";

afterEach(() => {
  vi.useRealTimers();
});

const A = "a".repeat(40);
const B = "b".repeat(40);
const update = (ref: string): RefUpdate => ({ oldSha: A, newSha: B, ref });

/** A repository whose knowledge diffs answer when the test says (no knowledge changed). */
function slowRepo() {
  const pending: ((changes: KnowledgeChange[]) => void)[] = [];
  const repo = {
    dir: "/nowhere.git",
    changedKnowledge: () => new Promise<KnowledgeChange[]>((resolve) => pending.push(resolve)),
    refCommit: async () => undefined,
  } as unknown as PushRepo;
  return { repo, pending };
}

describe("preReceive's warm-up of the secret scanner", () => {
  it("is called once when a diff outlasts WARM_UP_AFTER_MS, never for fast diffs", async () => {
    vi.useFakeTimers();
    const { repo, pending } = slowRepo();
    const warmUp = vi.fn();
    const run = preReceive({ repo, repoName: "o/n", defaultBranch: "main", lang: "en", warmUp }, [
      update("refs/heads/main"),
      update("refs/heads/feature"),
    ]);
    await vi.advanceTimersByTimeAsync(WARM_UP_AFTER_MS - 1);
    expect(warmUp).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(warmUp).toHaveBeenCalledTimes(1);
    pending.shift()?.([]);
    // The second branch's diff is slow too: the scanner is not loaded twice.
    await vi.advanceTimersByTimeAsync(WARM_UP_AFTER_MS * 2);
    expect(pending).toHaveLength(1);
    pending.shift()?.([]);
    expect(await run).toEqual({ lines: [], failures: [] });
    expect(warmUp).toHaveBeenCalledTimes(1);
  });

  it("is not called when every diff answers in time, nor after the hook's work is done", async () => {
    vi.useFakeTimers();
    const { repo, pending } = slowRepo();
    const warmUp = vi.fn();
    const run = preReceive({ repo, repoName: "o/n", defaultBranch: "main", lang: "en", warmUp }, [
      update("refs/heads/main"),
    ]);
    await vi.advanceTimersByTimeAsync(WARM_UP_AFTER_MS - 1);
    pending.shift()?.([]);
    expect(await run).toEqual({ lines: [], failures: [] });
    // The timer is gone with the diff: nothing fires later.
    await vi.advanceTimersByTimeAsync(WARM_UP_AFTER_MS * 10);
    expect(warmUp).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
