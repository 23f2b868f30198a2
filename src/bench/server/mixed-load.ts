/**
 * The mixed load of the scale-out check (issue "Several servers": recall, `shown` and
 * drafts at once) for the three-servers test and `npm run bench:multiserve`: a team set up
 * with the real administration commands (a Max licence made with a test key, so the draft
 * limit of the drafting users can be raised over the API), entries pushed with the real git
 * client, then autocannon driving keep-alive connections split over
 *
 * - `POST /mcp` `tools/call knowledge_recall` (user `agent`; recall counts its hits shown),
 * - `POST …/knowledge/shown` with {@link SHOWN_IDS} known ids (users `shown1`…`shown4`),
 * - `POST …/knowledge/drafts` (users `drafter1`…`drafter4`, limit raised to 1 000 000).
 *
 * Every answer is recorded with its send and answer time (ms since the epoch), so a caller
 * can tell which fell in a window (a server killed mid-run).
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import autocannon, { type AutocannonClient, type AutocannonRequest } from "autocannon";
import {
  addMember,
  type LoadEntry,
  loadEntry,
  lore,
  pushEntries,
  type TeamHome,
  TOPICS,
  writeConfig,
} from "./team-harness.js";

/** The hosted repository of the load. */
export const MIXED_REPO = "acme/multi";
/** Ids in one `shown` batch. */
export const SHOWN_IDS = 16;
/** The users each route's connections take, round robin. */
export const MIXED_USERS = {
  recall: ["agent"],
  shown: ["shown1", "shown2", "shown3", "shown4"],
  draft: ["drafter1", "drafter2", "drafter3", "drafter4"],
} as const;

/** A route of the mix. */
export type MixedRoute = keyof typeof MIXED_USERS;

/** One answered (or failed) call. */
export interface MixedAnswer {
  route: MixedRoute;
  /** The user whose token the connection holds. */
  user: string;
  /** HTTP status; 0 for a socket error or timeout. */
  status: number;
  /** When it was sent and answered, ms since the epoch. */
  sentAt: number;
  answeredAt: number;
  ms: number;
}

/** A socket error or timeout of one connection (no HTTP answer). */
export interface MixedSocketError {
  route: MixedRoute;
  /** When autocannon reported it, ms since the epoch. */
  at: number;
  /** The error's message (`read ECONNRESET`, `request timed out`). */
  message: string;
}

/** The body of an answer with a status of 500 or more (the first ones of a run). */
export interface MixedFailureBody {
  route: MixedRoute;
  status: number;
  /** The body's first 300 characters. */
  body: string;
}

/** What a mixed run gave. */
export interface MixedRun {
  answers: MixedAnswer[];
  /** Ids of the drafts answered 201. */
  drafts: string[];
  /** Hits answered by 200 recalls without an error. */
  recallHits: number;
  /** Recalls answered 200 with a JSON-RPC error or `isError`. */
  recallErrors: number;
  /** 200s of `shown` whose `counted` was not {@link SHOWN_IDS}. */
  shownMiscounted: number;
  /** Socket errors and timeouts autocannon counted. */
  errors: number;
  /** Each of them, with its time. */
  socketErrors: MixedSocketError[];
  /** The bodies of the first {@link FAILURE_BODIES} answers with a status of 500 or more. */
  failureBodies: MixedFailureBody[];
  /** When the load started and its nominal end, ms since the epoch. */
  startedAt: number;
  endedAt: number;
}

/** A team ready for the load. */
export interface MixedTeam {
  tokens: Map<string, string>;
  entries: LoadEntry[];
}

/**
 * Makes a Max licence with a test key (`lore license keygen` / `make`) beside the home's
 * configuration and writes `[server]` with it and `extraToml` (e.g. `shown_rate_limit = 0`,
 * `database = …`).
 *
 * @returns the env trusting the key (`LORE_LICENSE_PUBLIC_KEY`), merged into `home.env` too.
 */
export async function maxLicence(home: TeamHome, extraToml = ""): Promise<void> {
  const keys = join(home.dir, "keys");
  mkdirSync(keys, { recursive: true });
  await lore(home, ["license", "keygen", "--out", keys]);
  const file = join(dirname(home.config), "licence.json");
  mkdirSync(dirname(file), { recursive: true });
  home.env.LORE_LICENSE_PUBLIC_KEY = join(keys, "public.pem");
  await lore(home, [
    "license",
    "make",
    "--edition",
    "max",
    "--licensee",
    "Multiserve",
    "--key",
    join(keys, "private.pem"),
    "--out",
    file,
  ]);
  writeConfig(home, `[server]\nlicense = "licence.json"\n${extraToml}`);
}

/**
 * Sets the team up through a running server at `base` (owner token `ownerToken`): the
 * repository, every user of {@link MIXED_USERS} with a token, `entries` entries pushed by
 * `agent`, the drafters' limit raised over `PUT /api/v1/admin/knowledge/limits/users/…`.
 *
 * @throws Error when a step fails.
 */
export async function setUpMixedTeam(
  home: TeamHome,
  base: string,
  ownerToken: string,
  entries: number,
): Promise<MixedTeam> {
  await lore(home, ["repo", "create", MIXED_REPO]);
  const tokens = new Map<string, string>();
  for (const user of Object.values(MIXED_USERS).flat()) {
    tokens.set(user, await addMember(home, user, MIXED_REPO, "write"));
  }
  for (const user of MIXED_USERS.draft) {
    const response = await fetch(`${base}/api/v1/admin/knowledge/limits/users/${user}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ limit: 1_000_000 }),
    });
    if (response.status !== 200) {
      throw new Error(`draft limit of ${user}: ${response.status} ${await response.text()}`);
    }
  }
  const list = Array.from({ length: entries }, (_, i) => loadEntry(i));
  await pushEntries(home, {
    base,
    token: tokens.get("agent") ?? "",
    repo: MIXED_REPO,
    entries: list,
  });
  return { tokens, entries: list };
}

/** How many bodies of 5xx answers a run keeps. */
export const FAILURE_BODIES = 20;

/** Keeps the body of a 5xx answer while fewer than {@link FAILURE_BODIES} are kept. */
function keepFailure(run: MixedRun, route: MixedRoute, status: number, body: string): void {
  if (status >= 500 && run.failureBodies.length < FAILURE_BODIES) {
    run.failureBodies.push({ route, status, body: body.slice(0, 300) });
  }
}

function requests(team: MixedTeam, run: MixedRun): Record<MixedRoute, AutocannonRequest> {
  let n = 0;
  const api = `/api/v1/repos/${MIXED_REPO}/knowledge`;
  const json = (request: AutocannonRequest, body: unknown): AutocannonRequest => ({
    ...request,
    headers: {
      ...request.headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify(body),
  });
  return {
    recall: {
      method: "POST",
      path: "/mcp",
      setupRequest: (request) => {
        const id = n++;
        return json(request, {
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "knowledge_recall",
            arguments: { query: `topic${id % TOPICS} deploy rollback` },
          },
        });
      },
      onResponse: (status, body) => {
        keepFailure(run, "recall", status, body);
        if (status !== 200) return;
        const answer = JSON.parse(body) as {
          error?: unknown;
          result?: { isError?: boolean; structuredContent?: { hits?: unknown[] } };
        };
        if (answer.error !== undefined || answer.result?.isError === true) run.recallErrors++;
        else run.recallHits += answer.result?.structuredContent?.hits?.length ?? 0;
      },
    },
    shown: {
      method: "POST",
      path: `${api}/shown`,
      setupRequest: (request) => {
        const start = (n++ * 7) % team.entries.length;
        const ids = Array.from(
          { length: SHOWN_IDS },
          (_, i) => team.entries[(start + i) % team.entries.length]?.id ?? "",
        );
        return json(request, { ids });
      },
      onResponse: (status, body) => {
        keepFailure(run, "shown", status, body);
        if (status !== 200) return;
        const answer = JSON.parse(body) as { counted?: number };
        if (answer.counted !== SHOWN_IDS) run.shownMiscounted++;
      },
    },
    draft: {
      method: "POST",
      path: `${api}/drafts`,
      setupRequest: (request) => {
        const i = n++;
        return json(request, {
          branch: "main",
          title: `Load draft ${i}`,
          body: `Draft ${i} written under load: deploy service ${i % 50} after the checks pass.`,
          words: [`topic${i % TOPICS}`, "deploy"],
        });
      },
      onResponse: (status, body) => {
        keepFailure(run, "draft", status, body);
        if (status !== 201) return;
        const id = (JSON.parse(body) as { id?: string }).id;
        if (typeof id === "string") run.drafts.push(id);
      },
    },
  };
}

/** The share of the connections each route gets. */
const SHARES: Record<MixedRoute, number> = { recall: 0.4, shown: 0.3, draft: 0.3 };

/**
 * Drives the mix at `base` with `connections` keep-alive connections for `seconds`, then
 * drains: each connection ends after the answer to the call it has in flight.
 *
 * @param options - `during(run)`: called once the load runs (e.g. to kill a server later).
 */
export async function driveMixed(
  base: string,
  team: MixedTeam,
  options: { connections: number; seconds: number; during?: () => void },
): Promise<MixedRun> {
  const run: MixedRun = {
    answers: [],
    drafts: [],
    recallHits: 0,
    recallErrors: 0,
    shownMiscounted: 0,
    errors: 0,
    socketErrors: [],
    failureBodies: [],
    startedAt: Date.now(),
    endedAt: Date.now() + options.seconds * 1000,
  };
  const mix = requests(team, run);
  const clients: AutocannonClient[] = [];
  const routes = Object.keys(SHARES) as MixedRoute[];
  let left = options.connections;
  const instances = routes.map((route, i) => {
    const connections =
      i === routes.length - 1 ? left : Math.max(1, Math.round(options.connections * SHARES[route]));
    left -= connections;
    let next = 0;
    const users = MIXED_USERS[route];
    const instance = autocannon({
      url: base,
      connections,
      duration: options.seconds + 120,
      timeout: 60,
      requests: [mix[route]],
      setupClient: (client: AutocannonClient) => {
        const user = users[next++ % users.length] ?? "";
        client.loreTag = user;
        client.setHeaders({ authorization: `Bearer ${team.tokens.get(user)}` });
        clients.push(client);
      },
    });
    instance.on("response", (client: AutocannonClient, status: number, _b: number, ms: number) => {
      const answeredAt = Date.now();
      run.answers.push({
        route,
        user: client.loreTag ?? "",
        status,
        sentAt: answeredAt - ms,
        answeredAt,
        ms,
      });
    });
    instance.on("reqError", (error: Error) => {
      run.socketErrors.push({ route, at: Date.now(), message: error.message });
    });
    return Promise.resolve(instance).then((result) => {
      // autocannon's `errors` counts its timeouts too.
      run.errors += result.errors;
    });
  });
  options.during?.();
  const drain = setTimeout(() => {
    for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
  }, options.seconds * 1000);
  try {
    await Promise.all(instances);
  } finally {
    clearTimeout(drain);
  }
  return run;
}

/**
 * Sums `shown` over a user's `GET …/knowledge/stats/me` at `base`.
 *
 * @throws Error on a status other than 200 or a partial answer.
 */
export async function shownOf(base: string, token: string): Promise<number> {
  const response = await fetch(`${base}/api/v1/repos/${MIXED_REPO}/knowledge/stats/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as { items: { shown: number }[]; partial?: string };
  if (response.status !== 200 || body.partial !== undefined) {
    throw new Error(`stats/me answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.items.reduce((sum, item) => sum + item.shown, 0);
}

/**
 * Every draft id of {@link MIXED_REPO} at `base`, over `GET …/knowledge/drafts` page by page.
 *
 * @throws Error on a status other than 200.
 */
export async function draftIds(base: string, token: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let after: string | null = null;
  do {
    const query: string = after === null ? "" : `&after=${encodeURIComponent(after)}`;
    const response = await fetch(
      `${base}/api/v1/repos/${MIXED_REPO}/knowledge/drafts?per_page=100${query}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    if (response.status !== 200) {
      throw new Error(`drafts answered ${response.status}: ${await response.text()}`);
    }
    const page = (await response.json()) as { items: { id: string }[]; next_cursor: string | null };
    for (const item of page.items) ids.add(item.id);
    after = page.next_cursor;
  } while (after !== null);
  return ids;
}
