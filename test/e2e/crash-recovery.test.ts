import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  addMember,
  git,
  gitAuth,
  knowledgeListing,
  type LoadEntry,
  loadEntry,
  lore,
  pushEntries,
  rebuiltListing,
  runChild,
  type ServedTeam,
  serveTeam,
  teamHome,
} from "../../src/bench/server/team-harness.js";
import { DRAFT_LIMIT_DEFAULT } from "../../src/core/drafts/draft.js";
import { SHOWN_BATCH_MAX } from "../../src/core/stats/usage-stats.js";
import { LORE_BIN } from "./run-lore.js";

// The team server killed -9 in the middle of a load (seed 004: «Чтение счётчиков всегда
// точное»; the issue: an answer of 200 means it is durable): shown and read calls, drafts,
// recalls and git pushes run against a real `lore serve` when it is killed; restarted on
// the same data folder and index, it has every shown and read it answered 200 (and at most
// those in flight more), every draft it answered 201, and an index equal to a rebuild from
// the bare repository.

const REPO = "acme/app";
const ENTRIES = 300;
/** How long the load runs at least before the kill, ms (and until a push went through). */
const LOAD_MS = 3_000;
/** The kill comes by then even when no push went through (the test then fails). */
const LOAD_MAX_MS = 45_000;

const home = teamHome(LORE_BIN);
let served: ServedTeam | undefined;

afterAll(async () => {
  await served?.kill();
  home.cleanup();
});

/** What one kind of call did under the load: answered as accepted, and still in flight. */
interface Outcome {
  accepted: number;
  inFlight: number;
  /** The accepted answers' bodies (drafts: their ids). */
  bodies: unknown[];
  /** Statuses other than the accepted one or a 429, with a body excerpt. */
  odd: string[];
}

/**
 * Runs `workers` loops of `call` until `stop` says so, `max` calls were made or the server
 * is gone; a call that got no answer (the kill) counts in flight.
 */
async function loop(
  workers: number,
  stop: () => boolean,
  accepted: number,
  call: (i: number) => Promise<Response>,
  max = Number.POSITIVE_INFINITY,
): Promise<Outcome> {
  const outcome: Outcome = { accepted: 0, inFlight: 0, bodies: [], odd: [] };
  let n = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop() && n < max) {
        let response: Response;
        try {
          response = await call(n++);
        } catch {
          // No answer: the server died with this call in it (or before it arrived).
          outcome.inFlight++;
          return;
        }
        let body: unknown;
        try {
          body = await response.json();
        } catch {
          // Headers came, the body did not: an answer never read is not an answer.
          outcome.inFlight++;
          return;
        }
        if (response.status === accepted) {
          outcome.accepted++;
          outcome.bodies.push(body);
        } else if (response.status !== 429) {
          outcome.odd.push(`${response.status} ${JSON.stringify(body).slice(0, 200)}`);
        }
      }
    }),
  );
  return outcome;
}

async function statsOf(base: string, token: string): Promise<{ shown: number; read: number }> {
  const response = await fetch(`${base}/api/v1/repos/${REPO}/knowledge/stats/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { items: { shown: number; read: number }[] };
  return body.items.reduce((s, i) => ({ shown: s.shown + i.shown, read: s.read + i.read }), {
    shown: 0,
    read: 0,
  });
}

async function draftIds(base: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | null = null;
  do {
    const query: string = after === null ? "" : `&after=${encodeURIComponent(after)}`;
    const response = await fetch(
      `${base}/api/v1/repos/${REPO}/knowledge/drafts?per_page=100${query}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: { id: string }[]; next_cursor: string | null };
    for (const item of page.items) ids.add(item.id);
    after = page.next_cursor;
  } while (after !== null);
  return ids;
}

describe("lore serve killed -9 under load", () => {
  it("keeps every shown, read and draft it answered, and its index equals a rebuild", async () => {
    served = await serveTeam(home);
    await lore(home, ["repo", "create", REPO]);
    const anna = await addMember(home, "anna", REPO, "write");
    const sam = await addMember(home, "sam", REPO, "read");
    const rita = await addMember(home, "rita", REPO, "read");
    const entries: LoadEntry[] = Array.from({ length: ENTRIES }, (_, i) => loadEntry(i));
    const work = await pushEntries(home, { base: served.base, token: anna, repo: REPO, entries });
    expect(await knowledgeListing(served.base, anna, REPO)).toHaveLength(ENTRIES);

    const base = served.base;
    let killed = false;
    const stop = () => killed;
    const post = (token: string, path: string, body?: unknown) =>
      fetch(`${base}/api/v1/repos/${REPO}/knowledge${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const batch = (i: number) =>
      Array.from(
        { length: SHOWN_BATCH_MAX },
        (_, k) => entries[(i * 7 + k) % ENTRIES]?.id as string,
      );
    // Pushes of one new entry each, by the real git client, until the kill.
    const pushed: string[] = [];
    const pushes = (async () => {
      for (let i = ENTRIES; !killed; i++) {
        const entry = loadEntry(i);
        writeFileSync(join(work, entry.path), entry.text);
        await git(home, work, ["add", "-A"]);
        await git(home, work, ["commit", "-qm", `entry ${i}`]);
        const push = await runChild(
          "git",
          [...gitAuth(anna), "push", "-q", "origin", "HEAD:main"],
          work,
          home.env,
        );
        if (push.code === 0) pushed.push(entry.id);
        else break;
      }
    })();
    const load = Promise.all([
      loop(3, stop, 200, (i) => post(sam, "/shown", { ids: batch(i) })),
      loop(3, stop, 200, (i) => post(rita, `/entries/${entries[i % ENTRIES]?.id}/read`)),
      loop(
        4,
        stop,
        201,
        (i) =>
          post(anna, "/drafts", {
            branch: `feature/${i % 5}`,
            title: `Crash draft ${i}`,
            body: `What the load wrote as draft ${i}.`,
            words: ["crash", `draft${i}`],
          }),
        // Under the default limit of 200 drafts per author: every draft must be accepted.
        DRAFT_LIMIT_DEFAULT - 20,
      ),
      loop(2, stop, 200, (i) =>
        fetch(`${base}/mcp`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${anna}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: i,
            method: "tools/call",
            params: { name: "knowledge_recall", arguments: { query: `topic${i % 40} deploy` } },
          }),
        }),
      ),
    ]);
    const started = Date.now();
    while (Date.now() - started < LOAD_MAX_MS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (Date.now() - started >= LOAD_MS && pushed.length > 0) break;
    }
    killed = true;
    await served.kill();
    const [shown, read, drafts, recalls] = await load;
    await pushes;

    // The load did run, and nothing answered a status it should not have.
    expect(shown.accepted).toBeGreaterThan(0);
    expect(read.accepted).toBeGreaterThan(0);
    expect(drafts.accepted).toBeGreaterThan(0);
    expect(recalls.accepted).toBeGreaterThan(0);
    expect([...shown.odd, ...read.odd, ...drafts.odd, ...recalls.odd]).toEqual([]);
    // A push goes through while the counters and drafts are written.
    expect(pushed.length).toBeGreaterThan(0);

    served = await serveTeam(home);
    const after = served.base;
    const samStats = await statsOf(after, sam);
    expect(samStats.shown).toBeGreaterThanOrEqual(shown.accepted * SHOWN_BATCH_MAX);
    expect(samStats.shown).toBeLessThanOrEqual((shown.accepted + shown.inFlight) * SHOWN_BATCH_MAX);
    expect(samStats.shown % SHOWN_BATCH_MAX).toBe(0);
    const ritaStats = await statsOf(after, rita);
    expect(ritaStats.read).toBeGreaterThanOrEqual(read.accepted);
    expect(ritaStats.read).toBeLessThanOrEqual(read.accepted + read.inFlight);

    // Recall counts its hits shown to the caller, durably too.
    const hits = recalls.bodies.reduce<number>(
      (sum, body) =>
        sum +
        ((body as { result?: { structuredContent?: { hits?: unknown[] } } }).result
          ?.structuredContent?.hits?.length ?? 0),
      0,
    );
    expect(hits).toBeGreaterThan(0);
    expect((await statsOf(after, anna)).shown).toBeGreaterThanOrEqual(hits);

    const written = drafts.bodies.map((body) => (body as { id: string }).id);
    const stored = await draftIds(after, anna);
    expect(written.filter((id) => !stored.has(id))).toEqual([]);

    const listing = await knowledgeListing(after, anna, REPO);
    const listedDrafts = new Set(listing.filter((e) => e.draft === true).map((e) => e.id));
    expect(written.filter((id) => !listedDrafts.has(id))).toEqual([]);
    const files = listing.filter((e) => e.draft !== true);
    const listedFiles = new Set(files.map((e) => e.id));
    expect(pushed.filter((id) => !listedFiles.has(id))).toEqual([]);
    await served.stop();
    served = undefined;
    expect(await rebuiltListing(home, anna, REPO)).toEqual(files);
  }, 180_000);
});
