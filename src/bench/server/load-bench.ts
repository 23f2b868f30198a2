/**
 * The team server under load (seed 004 "Интерфейс": shown and read counters, the stats, the
 * per-token limit of 600 `shown` calls a minute; the issue's "Load and crash"). Run with
 * `npm run bench:load`.
 *
 * Spawns a real `lore serve` (`dist/cli/main.js`) on 127.0.0.1 with a temp data folder and
 * a Pro licence made with a test key (`lore license keygen` / `make`, trusted through
 * `LORE_LICENSE_PUBLIC_KEY`), creates `acme/load`, users and tokens with the administration
 * commands, pushes {@link ENTRIES} entries with the real git client over smart HTTP, then
 * drives it with autocannon: {@link CONNECTIONS} keep-alive connections for `LOAD_SECONDS`
 * (default 60) seconds, split over
 *
 * - `POST /mcp` `tools/call knowledge_recall` (user `agent`; recall counts its hits shown),
 * - `POST …/knowledge/shown` with 256 distinct known ids (users `shown1`…`shown4`, one token
 *   each, so the 600-a-minute limit bites),
 * - `POST …/knowledge/entries/{id}/read` (user `reader`),
 * - `GET …/knowledge/stats/me` and `GET …/knowledge/stats/team` (user `viewer`).
 *
 * Prints p50 / p99 (ms) and req/s per route, then checks and fails (exit 1) when one does
 * not hold: no 5xx, no socket error or timeout, only the statuses a route may give; every
 * 200 of `shown` counted 256; each shown user's `stats/me` sums to exactly its accepted
 * calls × 256, the reader's reads to its accepted reads, the agent's shown to the hits its
 * recalls answered; the 429s equal the number the limit implies per token per minute window
 * (a call whose send and answer straddle a window edge may fall in either: the bound says
 * so); and the index equals a rebuild (the listing of `GET …/knowledge` equals the one a
 * second server over the same data folder with an empty index file gives).
 *
 * Environment: `LOAD_SECONDS` (60), `LOAD_ENTRIES` (320, at least 256), `LOAD_CONNECTIONS`
 * (100), `LOAD_SHOWN_LIMIT` (600). Writes nothing outside its temp folder; stops by itself.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon, {
  type AutocannonClient,
  type AutocannonRequest,
  type AutocannonResult,
} from "autocannon";
import { SHOWN_BATCH_MAX } from "../../core/stats/usage-stats.js";
import { summarize } from "../latency-stats.js";
import { expected429, type TimedCall } from "./expected-429.js";
import {
  addMember,
  knowledgeListing,
  type LoadEntry,
  loadEntry,
  lore,
  pushEntries,
  rebuiltListing,
  serveTeam,
  type TeamHome,
  TOPICS,
  teamHome,
  writeConfig,
} from "./team-harness.js";

const MAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "cli", "main.js");
const REPO = "acme/load";
const SHOWN_USERS = ["shown1", "shown2", "shown3", "shown4"];

const envInt = (name: string, fallback: number, min: number): number => {
  const raw = process.env[name];
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return n;
};

const SECONDS = envInt("LOAD_SECONDS", 60, 1);
const ENTRIES = envInt("LOAD_ENTRIES", 320, SHOWN_BATCH_MAX);
const CONNECTIONS = envInt("LOAD_CONNECTIONS", 100, 10);
/**
 * The per-token limit of `shown` calls a minute the server is configured with
 * (`[server] shown_rate_limit`): the seed's 600 by default; lower it (`LOAD_SHOWN_LIMIT`) to
 * make the limit bite on a machine too slow to reach 600 calls a minute per token.
 */
const SHOWN_LIMIT = envInt("LOAD_SHOWN_LIMIT", 600, 1);

/** One answered request, as the bench records it. */
interface Answer extends TimedCall {
  status: number;
  ms: number;
}

/** One route of the mix. */
interface Route {
  name: string;
  /** Its share of the connections, a fraction. */
  share: number;
  /** The users whose tokens its connections take, round robin. */
  users: string[];
  /** Statuses it may answer; anything else fails the run. */
  allowed: number[];
  request: AutocannonRequest;
}

/** What a route's run gave. */
interface RouteRun {
  route: Route;
  connections: number;
  result: AutocannonResult;
  answers: Answer[];
}

function bodyOf(answer: unknown): string {
  return typeof answer === "string" ? answer : "";
}

/** The counts the checks compare, gathered from the answers' bodies. */
const tally = {
  /** 200s of `shown` whose `counted` was not the batch. */
  shownMiscounted: 0,
  /** Hits answered by 200 recalls (each counted shown once for `agent`). */
  recallHits: 0,
  /** Recalls answered 200 with a JSON-RPC error or `isError`. */
  recallErrors: 0,
};

function routes(entries: readonly LoadEntry[]): Route[] {
  let n = 0;
  const batch = (): string[] => {
    const start = (n++ * 37) % entries.length;
    return Array.from(
      { length: SHOWN_BATCH_MAX },
      (_, i) => entries[(start + i) % entries.length]?.id ?? "",
    );
  };
  const api = `/api/v1/repos/${REPO}/knowledge`;
  return [
    {
      name: "MCP knowledge_recall over POST /mcp",
      share: 0.25,
      users: ["agent"],
      allowed: [200],
      request: {
        method: "POST",
        path: "/mcp",
        setupRequest: (request) => {
          const id = n++;
          return {
            ...request,
            headers: {
              ...request.headers,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id,
              method: "tools/call",
              params: {
                name: "knowledge_recall",
                arguments: { query: `topic${id % TOPICS} deploy rollback` },
              },
            }),
          };
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          const answer = JSON.parse(bodyOf(body)) as {
            error?: unknown;
            result?: { isError?: boolean; structuredContent?: { hits?: unknown[] } };
          };
          if (answer.error !== undefined || answer.result?.isError === true) tally.recallErrors++;
          tally.recallHits += answer.result?.structuredContent?.hits?.length ?? 0;
        },
      },
    },
    {
      name: `POST …/knowledge/shown (${SHOWN_BATCH_MAX} ids)`,
      share: 0.2,
      users: SHOWN_USERS,
      allowed: [200, 429],
      request: {
        method: "POST",
        path: `${api}/shown`,
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, "content-type": "application/json" },
          body: JSON.stringify({ ids: batch() }),
        }),
        onResponse: (status, body) => {
          if (status !== 200) return;
          const answer = JSON.parse(bodyOf(body)) as { counted?: number; unknown?: unknown[] };
          if (answer.counted !== SHOWN_BATCH_MAX || (answer.unknown?.length ?? 0) !== 0) {
            tally.shownMiscounted++;
          }
        },
      },
    },
    {
      name: "POST …/knowledge/entries/{id}/read",
      share: 0.2,
      users: ["reader"],
      allowed: [200],
      request: {
        method: "POST",
        path: `${api}/entries/x/read`,
        setupRequest: (request) => ({
          ...request,
          path: `${api}/entries/${entries[n++ % entries.length]?.id}/read`,
        }),
      },
    },
    {
      name: "GET …/knowledge/stats/me",
      share: 0.15,
      users: ["viewer"],
      allowed: [200],
      request: { method: "GET", path: `${api}/stats/me` },
    },
    {
      name: "GET …/knowledge/stats/team (Pro)",
      share: 0.15,
      users: ["viewer"],
      allowed: [200],
      request: { method: "GET", path: `${api}/stats/team` },
    },
    {
      // The baseline of the same run: the cheapest answer the server gives, under the same
      // load; each route's p50 over this one's is its own cost.
      name: "GET /healthz (baseline)",
      share: 0.05,
      users: ["viewer"],
      allowed: [200],
      request: { method: "GET", path: "/healthz" },
    },
  ];
}

/**
 * Runs every route at once, each its own autocannon over its share of the connections, for
 * `seconds`; then drains: each connection ends after the answer to the call it has in
 * flight (none is cut off unanswered, so the counters can be compared exactly).
 */
async function drive(
  base: string,
  tokens: Map<string, string>,
  mix: Route[],
  seconds: number,
): Promise<RouteRun[]> {
  let left = CONNECTIONS;
  const clients: AutocannonClient[] = [];
  const runs = mix.map((route, i) => {
    const connections =
      i === mix.length - 1 ? left : Math.max(1, Math.round(CONNECTIONS * route.share));
    left -= connections;
    const answers: Answer[] = [];
    let next = 0;
    const instance = autocannon({
      url: base,
      connections,
      // A guard only: the drain below ends the run.
      duration: seconds + 120,
      timeout: 30,
      requests: [route.request],
      setupClient: (client: AutocannonClient) => {
        const user = route.users[next++ % route.users.length] ?? "";
        client.loreTag = user;
        client.setHeaders({ authorization: `Bearer ${tokens.get(user)}` });
        clients.push(client);
      },
    });
    instance.on("response", (client: AutocannonClient, status: number, _b: number, ms: number) => {
      const answeredAt = Date.now();
      answers.push({ tag: client.loreTag ?? "", status, sentAt: answeredAt - ms, answeredAt, ms });
    });
    return Promise.resolve(instance).then((result) => ({ route, connections, result, answers }));
  });
  const drain = setTimeout(() => {
    for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
  }, seconds * 1000);
  try {
    return await Promise.all(runs);
  } finally {
    clearTimeout(drain);
  }
}

function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

/** Sums a field over a `stats/me` or `stats/team` answer of `token`. */
async function statsSum(
  base: string,
  token: string,
  kind: "me" | "team",
): Promise<{ shown: number; read: number }> {
  const response = await fetch(`${base}/api/v1/repos/${REPO}/knowledge/stats/${kind}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as {
    items: { shown: number; read: number }[];
    partial?: string;
  };
  if (response.status !== 200 || body.partial !== undefined) {
    throw new Error(`stats/${kind} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.items.reduce((s, i) => ({ shown: s.shown + i.shown, read: s.read + i.read }), {
    shown: 0,
    read: 0,
  });
}

/** Makes a Pro licence with a test key; returns the env that trusts the key. */
async function proLicence(home: TeamHome): Promise<Record<string, string>> {
  const keys = join(home.dir, "keys");
  mkdirSync(keys, { recursive: true });
  await lore(home, ["license", "keygen", "--out", keys]);
  const file = join(home.dir, "config", "lore", "licence.json");
  mkdirSync(dirname(file), { recursive: true });
  await lore(home, [
    "license",
    "make",
    "--edition",
    "pro",
    "--licensee",
    "Load bench",
    "--key",
    join(keys, "private.pem"),
    "--out",
    file,
  ]);
  return { LORE_LICENSE_PUBLIC_KEY: join(keys, "public.pem") };
}

async function main(): Promise<void> {
  const home = teamHome(MAIN);
  const failures: string[] = [];
  const served = { current: undefined as Awaited<ReturnType<typeof serveTeam>> | undefined };
  try {
    Object.assign(home.env, await proLicence(home));
    writeConfig(home, `[server]\nlicense = "licence.json"\nshown_rate_limit = ${SHOWN_LIMIT}\n`);
    const server = await serveTeam(home);
    served.current = server;
    await lore(home, ["repo", "create", REPO]);
    const tokens = new Map<string, string>();
    for (const user of ["agent", ...SHOWN_USERS, "reader", "viewer"]) {
      tokens.set(user, await addMember(home, user, REPO, user === "agent" ? "write" : "read"));
    }
    const entries = Array.from({ length: ENTRIES }, (_, i) => loadEntry(i));
    const pushStarted = performance.now();
    await pushEntries(home, {
      base: server.base,
      token: tokens.get("agent") ?? "",
      repo: REPO,
      entries,
    });
    const listed = await knowledgeListing(server.base, server.ownerToken, REPO);
    if (listed.length !== ENTRIES) throw new Error(`indexed ${listed.length} of ${ENTRIES}`);
    console.log(
      `lore serve under load: ${REPO} of ${ENTRIES} entries pushed by git over smart HTTP in ${((performance.now() - pushStarted) / 1000).toFixed(1)} s; ${CONNECTIONS} connections for ${SECONDS} s on 127.0.0.1 (autocannon 9)`,
    );
    const loadStarted = Date.now();
    const runs = await drive(server.base, tokens, routes(entries), SECONDS);
    const deadline = loadStarted + SECONDS * 1000;

    const baseline = runs.find((run) => run.route.name.startsWith("GET /healthz"));
    const baseP50 = summarize((baseline?.answers ?? []).map((a) => a.ms)).p50;
    console.log(
      "\nroute                                   conns   p50       p99       req/s    statuses   p50/healthz",
    );
    for (const run of runs) {
      const { result } = run;
      const statuses = Object.entries(result.statusCodeStats)
        .map(([code, { count }]) => `${code}×${count}`)
        .join(" ");
      const stats = summarize(run.answers.map((a) => a.ms));
      // Per second of the load proper (the drain's answers are counted, not timed).
      const perSecond = run.answers.filter((a) => a.answeredAt <= deadline).length / SECONDS;
      console.log(
        `${run.route.name.padEnd(40)}${String(run.connections).padStart(5)}   ${fmt(stats.p50).padEnd(10)}${fmt(stats.p99).padEnd(10)}${perSecond.toFixed(1).padStart(7)}   ${statuses}   ${baseP50 > 0 ? `${(stats.p50 / baseP50).toFixed(2)}×` : "–"}`,
      );
      if (result.errors > 0 || result.timeouts > 0) {
        failures.push(`${run.route.name}: ${result.errors} errors, ${result.timeouts} timeouts`);
      }
      for (const code of Object.keys(result.statusCodeStats)) {
        if (!run.route.allowed.includes(Number(code))) {
          failures.push(`${run.route.name}: answered ${code}`);
        }
      }
    }
    const shownRun = runs[1] as RouteRun;
    const ok = shownRun.answers.filter((a) => a.status === 200);
    const limited = shownRun.answers.filter((a) => a.status === 429);
    const okStats = summarize(ok.map((a) => a.ms));
    const limitedStats = summarize(limited.map((a) => a.ms));
    console.log(
      `shown, split: 200 p50 ${fmt(okStats.p50)} p99 ${fmt(okStats.p99)} (${ok.length}); 429 p50 ${fmt(limitedStats.p50)} p99 ${fmt(limitedStats.p99)} (${limited.length})`,
    );

    // The counters, read right after the load: exact.
    const [least, most] = expected429(shownRun.answers, SHOWN_LIMIT);
    const busiest = Math.max(
      0,
      ...SHOWN_USERS.map((user) => shownRun.answers.filter((a) => a.tag === user).length),
    );
    console.log(
      `\n429 rate_limited on shown: ${limited.length}, expected ${least}–${most} (limit ${SHOWN_LIMIT} a minute per token; the busiest token made ${busiest} calls${busiest <= SHOWN_LIMIT ? ": the limit did not bite, lower LOAD_SHOWN_LIMIT to test it" : ""})`,
    );
    if (limited.length < least || limited.length > most) {
      failures.push(`429s ${limited.length} outside the expected ${least}–${most}`);
    }
    if (tally.shownMiscounted > 0) {
      failures.push(`${tally.shownMiscounted} shown answers did not count ${SHOWN_BATCH_MAX}`);
    }
    let shownTotal = 0;
    for (const user of SHOWN_USERS) {
      const accepted = ok.filter((a) => a.tag === user).length;
      const stored = await statsSum(server.base, tokens.get(user) ?? "", "me");
      shownTotal += stored.shown;
      const line = `${user}: ${accepted} accepted × ${SHOWN_BATCH_MAX} = ${accepted * SHOWN_BATCH_MAX}, stored ${stored.shown}`;
      console.log(line);
      if (stored.shown !== accepted * SHOWN_BATCH_MAX) failures.push(line);
    }
    const readRun = runs[2] as RouteRun;
    const reads = readRun.answers.filter((a) => a.status === 200).length;
    const reader = await statsSum(server.base, tokens.get("reader") ?? "", "me");
    console.log(`reader: ${reads} reads answered 200, stored ${reader.read}`);
    if (reader.read !== reads) failures.push(`reader: ${reads} reads, stored ${reader.read}`);
    const agent = await statsSum(server.base, tokens.get("agent") ?? "", "me");
    console.log(`agent: ${tally.recallHits} hits answered by recall, stored shown ${agent.shown}`);
    if (agent.shown !== tally.recallHits) {
      failures.push(`agent: ${tally.recallHits} recall hits, stored shown ${agent.shown}`);
    }
    if (tally.recallErrors > 0) failures.push(`${tally.recallErrors} recalls answered an error`);
    const team = await statsSum(server.base, tokens.get("viewer") ?? "", "team");
    const teamWanted = shownTotal + agent.shown;
    console.log(
      `team: shown ${team.shown} (wanted ${teamWanted}), read ${team.read} (wanted ${reads})`,
    );
    if (team.shown !== teamWanted || team.read !== reads) failures.push("team totals differ");

    // The index equals a rebuild from the bare repository.
    const before = (await knowledgeListing(server.base, server.ownerToken, REPO)).filter(
      (e) => e.draft !== true,
    );
    await server.stop();
    served.current = undefined;
    const rebuilt = await rebuiltListing(home, server.ownerToken, REPO);
    const same = JSON.stringify(before) === JSON.stringify(rebuilt);
    console.log(`index equals a rebuild: ${same ? "yes" : "NO"} (${before.length} entries)`);
    if (!same) failures.push("the index differs from a rebuild");
  } finally {
    await served.current?.stop();
    home.cleanup();
  }
  if (failures.length > 0) {
    console.error(`\nFAILED:\n${failures.map((f) => `- ${f}`).join("\n")}`);
    process.exitCode = 1;
  } else console.log("\nall checks hold");
}

await main();
