/**
 * Recall answers natural questions: a team's knowledge base of 20 entries (Russian and
 * English) committed to a real git repository, indexed into a real SQLite file, and a table
 * of natural questions, each with the exact hits expected — "none" included. Stop words
 * (`how`, `do`, `the`, `в`, `где`) never match; a word found in over half of the entries
 * never lists a hit beside rarer words; more query words matched ranks higher; of equal
 * matches the entry whose contract fires ranks first.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openGitRepo } from "../../../src/adapters/git-cli/git-cli-repo.js";
import { LoreError } from "../../../src/core/errors/lore-error.js";
import { type EntryIndex, openIndex } from "../../../src/index/entry-index.js";
import { indexRepository } from "../../../src/services/indexing/index-repo.js";
import { recall } from "../../../src/services/knowledge/recall.js";
import { makeRepo, type TestRepo } from "../../helpers/make-repo.js";

interface Fixture {
  words?: string[];
  tool?: string;
  text: string;
}

/** The knowledge base, by short name. */
const ENTRIES: Record<string, Fixture> = {
  dbPassword: {
    words: ["password", "vault"],
    text: "Rotate the database password.\n\nThe Postgres password lives in Vault at secret/db. Rotate it with `vault write -f database/rotate-root/app`, then restart the API pods.",
  },
  deployFriday: {
    words: ["деплой", "релиз"],
    text: "Не деплоить в пятницу.\n\nРелизы в пятницу запрещены: после 15:00 деплой только с разрешения дежурного.",
  },
  rollback: {
    words: ["откат"],
    text: "Как откатить релиз.\n\nОткат: `kubectl rollout undo deployment/api`. Проверьте миграции базы перед откатом.",
  },
  flakyTest: {
    words: ["flaky", "checkout"],
    text: "The flaky checkout test.\n\ntests/checkout.spec.ts breaks on CI one run in ten because of a race on the cart cache; rerun it twice, never mark it skipped.",
  },
  migrations: {
    tool: "run_migration",
    words: ["migration"],
    text: "Run migrations before deploying.\n\nApply schema migrations with `npm run migrate` before the API starts; a missing column crashes the workers.",
  },
  stripe: {
    words: ["stripe"],
    text: "Stripe webhooks are retried.\n\nStripe retries an unanswered webhook for three days with exponential backoff; handlers must be idempotent on the event id.",
  },
  sshKeys: {
    words: ["ключ", "ssh"],
    text: "SSH-ключи серверов.\n\nSSH-ключи меняются раз в квартал скриптом keys-rollover.sh; старый ключ удаляется через неделю.",
  },
  redis: {
    words: ["redis"],
    text: "Redis cache eviction.\n\nThe cache runs allkeys-lru; a full cache evicts sessions, so size it at twice the peak.",
  },
  logging: {
    words: ["логи", "loki"],
    text: "Логи сервиса.\n\nЛоги пишутся в Loki; ищите по метке app=api. Хранятся 14 дней.",
  },
  oncall: {
    words: ["on-call", "pager"],
    text: "On-call handover.\n\nHand over the pager on Monday at 10:00 in #ops; write open incidents into the handover doc.",
  },
  nodeVersion: {
    words: ["node"],
    text: "Node version.\n\nThe project runs on Node 20; nvm reads .nvmrc.",
  },
  certs: {
    words: ["certificate", "tls"],
    text: "TLS certificates renew automatically.\n\ncert-manager renews certificates 30 days before expiry; a renewal error pages the on-call.",
  },
  backup: {
    words: ["бэкап", "резервная копия"],
    text: "Резервные копии базы.\n\nРезервная копия базы делается каждую ночь в 03:00; восстановление — скриптом restore.sh.",
  },
  featureFlags: {
    words: ["flag"],
    text: "Feature flags.\n\nFlags live in LaunchDarkly; remove a flag within two sprints after full rollout.",
  },
  vpn: {
    words: ["vpn"],
    text: "VPN access.\n\nAsk IT for a WireGuard profile; the VPN is needed for staging.",
  },
  codeReview: {
    words: ["ревью"],
    text: "Ревью кода.\n\nКаждый пулреквест смотрят два человека; ревью занимает не больше суток.",
  },
  dockerBuild: {
    words: ["docker"],
    text: "Docker build cache.\n\nBuildKit cache mounts keep npm warm; the CI image build takes 3 minutes with a warm cache.",
  },
  timezone: {
    words: ["utc", "timezone"],
    text: "All times are UTC.\n\nServers, logs and cron run in UTC; convert only in the UI.",
  },
  rateLimit: {
    words: ["rate limit"],
    text: "API rate limits.\n\nThe public API allows 100 requests per minute per token; 429 means back off.",
  },
  partnerKey: {
    words: ["ключ"],
    text: "Ключ API партнёра.\n\nКлюч API партнёра хранится в Vault; ротация ключа — по запросу партнёра.",
  },
};

type Name = keyof typeof ENTRIES;

/** The questions and the exact hits expected, best first (`[]`: none). */
const QUESTIONS: [string, Name[]][] = [
  ["how do I rotate the database password", ["dbPassword"]],
  ["деплоить в пятницу", ["deployFriday"]],
  ["как откатить релиз", ["rollback", "deployFriday"]],
  ["релизы по пятницам", ["deployFriday", "rollback"]],
  ["what is the weather in Paris", []],
  ["how do I", []],
  ["the", []],
  ["kubernetes ingress", []],
  ["flaky checkout test", ["flakyTest"]],
  ["stripe webhook retries", ["stripe"]],
  ["ротация ключа", ["partnerKey", "sshKeys"]],
  ["redis eviction", ["redis"]],
  ["где логи сервиса", ["logging"]],
  ["on-call handover", ["oncall", "certs"]],
  ["which node version", ["nodeVersion"]],
  ["renew the TLS certificate", ["certs"]],
  ["восстановить базу из резервной копии", ["backup", "rollback"]],
  ["feature flag cleanup", ["featureFlags"]],
  ["vpn for staging", ["vpn"]],
  ["ревью пулреквеста", ["codeReview"]],
  ["why is the docker build slow", ["dockerBuild"]],
  ["what timezone are the servers in", ["timezone"]],
  ["429 too many requests", ["rateLimit"]],
  ["migration failed: missing column", ["migrations"]],
];

const idOf = (n: number) => `0190f5a4-3b2c-7d10-8a11-${n.toString(16).padStart(12, "0")}`;

function entryFile(id: string, fixture: Fixture): string {
  const clauses: string[] = [];
  if (fixture.words !== undefined) {
    clauses.push(
      `  - mechanism: on_query\n    params:\n      words: [${fixture.words.map((w) => JSON.stringify(w)).join(", ")}]`,
    );
  }
  if (fixture.tool !== undefined) {
    clauses.push(`  - mechanism: on_tool\n    params:\n      name: ${fixture.tool}`);
  }
  return `---\nid: ${id}\norigin: human\ncontract:\n${clauses.join("\n")}\n---\n\n${fixture.text}\n`;
}

describe("recall answers natural questions over a team's knowledge base", () => {
  let repo: TestRepo;
  let dbDir: string;
  let index: EntryIndex;
  const nameOf = new Map<string, Name>();

  beforeAll(async () => {
    const files: Record<string, string> = {};
    Object.entries(ENTRIES).forEach(([name, fixture], i) => {
      const id = idOf(i + 1);
      nameOf.set(id, name as Name);
      files[`.gitriver/knowledge/${name}.md`] = entryFile(id, fixture);
    });
    repo = await makeRepo(files);
    dbDir = await mkdtemp(join(tmpdir(), "lore-questions-"));
    index = openIndex(join(dbDir, "index.db"));
    const git = await openGitRepo(repo.dir);
    try {
      const report = await indexRepository({ index, repo: git, repoName: "team/app" });
      expect(report.added).toBe(Object.keys(ENTRIES).length);
    } finally {
      await git.close();
    }
  });

  afterAll(async () => {
    index?.close();
    await repo?.cleanup();
    if (dbDir) await rm(dbDir, { recursive: true, force: true });
  });

  const ask = (query: string) =>
    recall(index, { query, user: "u", limit: 20 }).hits.map((hit) => nameOf.get(hit.id) ?? hit.id);

  it(`answers ${QUESTIONS.length} natural questions with exactly the expected hits`, () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(20);
    expect(QUESTIONS.filter(([, hits]) => hits.length === 0).length).toBeGreaterThanOrEqual(4);
    const answers = QUESTIONS.map(([query]) => [query, ask(query)]);
    expect(answers).toEqual(QUESTIONS);
  });

  it("scores on one scale: words matched first, then a firing contract, then text", () => {
    const answer = recall(index, { query: "как откатить релиз", user: "u" });
    const [first, second] = answer.hits;
    // rollback: «откатить» (contract and text) and «релиз» (text) — 2 words, contract fired.
    expect(first?.score).toBeGreaterThanOrEqual(2.5);
    expect(first?.score).toBeLessThan(3);
    // deployFriday: «релиз» (contract and text) — 1 word, contract fired.
    expect(second?.score).toBeGreaterThanOrEqual(1.5);
    expect(second?.score).toBeLessThan(2);
    expect(second?.why).toEqual([{ kind: "on_query", word: "релиз" }, { kind: "text" }]);
    expect(first).toMatchObject({ kind: "entry", source: "team/app", repo: "team/app" });
  });

  it("answers odd queries without noise or a crash", () => {
    // Only stop words, in both languages: nothing distinctive, no hit.
    expect(ask("how do I do it")).toEqual([]);
    expect(ask("как и что в это")).toEqual([]);
    // ё/е, э/е after a consonant, capitals: the same words.
    expect(ask("ПАРТНЁРА")).toEqual(["partnerKey"]);
    expect(ask("рэвью")).toEqual(["codeReview"]);
    // Mixed scripts and emoji between words.
    expect(ask("🚀 stripe 🔥 вебхук")).toEqual(["stripe"]);
    expect(ask("redisкэш")).toEqual([]);
    // A 10 KB query: the first words are searched, the answer stays bounded.
    const long = `${"why does the deploy ".repeat(500)}stripe`;
    expect(long.length).toBeGreaterThan(10_000);
    const answer = recall(index, { query: long, user: "u" });
    expect(answer.hits.length).toBeLessThanOrEqual(10);
    expect(ask(`redis ${"x".repeat(5000)}`)).toEqual(["redis"]);
    // 40 distinct words: the answer is still the entry holding the rare one.
    const many = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    expect(ask(`${many} eviction`)).toEqual([]);
    expect(ask(`eviction ${many}`)).toEqual(["redis"]);
    // A prefix of a contract word's form.
    expect(ask("ротац*")).toEqual(["partnerKey"]);
  });

  it("refuses a query with no word at all (emoji, punctuation) with empty_query", () => {
    for (const query of ["🚀🔥", "?!", "   "]) {
      expect(() => recall(index, { query, user: "u" })).toThrow(LoreError);
    }
  });
});

describe("a full match beats a half one", () => {
  let dir: string;
  let index: EntryIndex;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-full-match-"));
    index = openIndex(join(dir, "index.db"));
    index.transaction(() => {
      const put = (n: number, body: string, words: string[]) =>
        index.putFile({
          repo: "big/app",
          path: `.gitriver/knowledge/${n}.md`,
          blobSha: "b".repeat(40),
          parsed: {
            entry: {
              id: idOf(n),
              contract: words.length > 0 ? [{ mechanism: "on_query", params: { words } }] : [],
              origin: "human",
              links: [],
              unknownKeys: {},
              body,
            },
            summary: body,
            reachable: words.length > 0,
            unmetMechanisms: [],
          },
          diagnostics: [],
        });
      // 620 entries whose contract names «ключ», and 600 others.
      for (let n = 1; n <= 620; n++) put(n, `Ключ номер ${n} от сервиса ${n}.`, ["ключ"]);
      for (let n = 621; n <= 1220; n++) put(n, `Заметка ${n} о сборке и тестах.`, []);
      // The one entry holding both words, with no contract.
      put(5000, "Ротация ключа подписи раз в квартал: скрипт rotate.sh.", []);
    });
  });

  afterAll(async () => {
    index?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("lists the entry holding both «ротацию» and «ключа» first, above 620 contract hits", () => {
    const answer = recall(index, { query: "ротацию ключа", user: "u" });
    expect(answer.hits[0]?.id).toBe(idOf(5000));
    expect(answer.hits[0]?.why).toEqual([{ kind: "text" }]);
    expect(answer.hits[0]?.score).toBeGreaterThanOrEqual(2);
    // Then the contract hits, each matching one word of two: 1.5 and a text part.
    expect(answer.hits[1]?.why[0]).toEqual({ kind: "on_query", word: "ключ" });
    expect(answer.hits[1]?.score).toBeGreaterThanOrEqual(1.5);
    expect(answer.hits[1]?.score).toBeLessThan(2);
    expect(answer.total).toBe(621);
  });

  it("ranks an equal text match below a firing contract", () => {
    const answer = recall(index, { query: "ключ", user: "u", limit: 50 });
    // 621 entries hold «ключ»: the contract hits (1.5 + text) rank above the text-only one.
    expect(answer.hits.every((hit) => hit.why[0]?.kind === "on_query")).toBe(true);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page = recall(index, {
        query: "ключ",
        user: "u",
        limit: 50,
        ...(cursor === null ? {} : { cursor }),
      });
      all.push(...page.hits.map((hit) => hit.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(all).toHaveLength(621);
    expect(new Set(all).size).toBe(621);
    expect(all.at(-1)).toBe(idOf(5000));
  });
});
