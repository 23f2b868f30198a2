/**
 * Parity of the full text on PostgreSQL with SQLite's (scale-out: PostgreSQL): the same
 * entries loaded into a real SQLite index (`EntryIndex`, `TextSearch`) and into a real
 * PostgreSQL (`LORE_TEST_PG_URL`), and a table of queries whose every page must agree hit
 * for hit — ids, order, rounded scores, totals, mode, `alsoText` — and whose full-precision
 * bm25 (`bm25(entry_text, 3.0, 1.0)` over `orExpression`) must agree to {@link TOLERANCE}
 * relative. Replacing and deleting entries keeps parity, and scores after them equal those
 * of a fresh load.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../../test/corpus/corpus-files.js";
import {
  createTestDatabase,
  PG_SKIP_REASON,
  TEST_PG_URL,
  type TestDatabase,
} from "../../../test/helpers/pg-test-database.js";
import type { ParsedEntry } from "../../core/entry/entry.js";
import { orExpression, parseSearchQuery } from "../../core/recall/search-query.js";
import { type EntryIndex, openIndex } from "../entry-index.js";
import type { TextPage } from "../text-search.js";
import { openPgTextStore, type PgTextDocument, type PgTextStore } from "./pg-text-store.js";

/**
 * The corpus (`../shared/corpus` beside the repository; `LORE_CORPUS_DIR` for a worktree
 * elsewhere).
 */
const CORPUS = process.env.LORE_CORPUS_DIR || CORPUS_DIR;
const CORPUS_PRESENT = existsSync(join(CORPUS, "SOURCES.md"));

/** Relative tolerance of full-precision bm25 (the last bits of `log`). */
const TOLERANCE = 1e-12;

/** A UUIDv7-shaped id from a number. */
const idOf = (n: number) => `0190f5a4-0000-7000-8000-${n.toString(16).padStart(12, "0")}`;

function parsed(id: string, summary: string, body: string): ParsedEntry {
  return {
    entry: { id, contract: [], origin: "agent", links: [], unknownKeys: {}, body },
    summary,
    reachable: false,
    unmetMechanisms: [],
  };
}

/** One entry of a fixture: its path (the file) and text. */
interface FixtureEntry {
  path: string;
  id: string;
  summary: string;
  body: string;
}

/**
 * The built-in fixture: Russian and English entries with word forms, `ё`, `кэш`/`кеш`,
 * glued words, and three identical entries whose ids run against their insertion order
 * (bm25 ties, ordered by entry id).
 */
function builtInFixture(): FixtureEntry[] {
  const texts: [string, string][] = [
    ["Откат релиза", "Как откатить релиз: git revert, затем выкатить заново. Откаты редки."],
    ["Откатываем релизы", "Откатывание релизов по шагам; откатили вчера."],
    ["Rolled back deploys", "We rolled back the deploy after the pre-receive hook failed."],
    ["Deploying safely", "Deploying: run the tests, then deploy. Deployment needs a green CI."],
    ["Ёлка и елка", "Зелёная ёлка стоит во дворе. ЁЛКА — это ель."],
    ["Кэш сборки", "Кеш сборки лежит в ~/.cache; тэг релиза ставим после сборки."],
    ["Сборка проекта", "Собрать проект: npm run build. Сборки идут на CI."],
    [
      "Configuration files",
      "Config lives in lore.toml; configure the server before the first push.",
    ],
    ["Migrations", "Database migrations run at start; migrate with `lore db migrate`."],
    ["Миграции базы", "Миграция базы данных выполняется при запуске сервера."],
    ["The pre-receive hook", "A pre-receive hook refuses pushes; pre receive is two words here."],
    ["Don't force-push", "Don't force-push to main: it rewrites history. v1.2 is tagged."],
    ["C++ and Node.js", "Node.js bindings are written in C++; snake_case names in C."],
    ["Как и в жизни", "Как в жизни, так и в коде: как можно проще."],
    ["Пустая заметка", ""],
    ["Passwords", "Rotate the database password every month; the password lives in a vault."],
    ["Пароли", "Пароль базы данных меняем каждый месяц; пароли хранятся в хранилище."],
  ];
  const out: FixtureEntry[] = texts.map(([summary, body], i) => ({
    path: `fixture/${i}.md`,
    id: idOf(1000 + i),
    summary,
    body,
  }));
  for (let i = 0; i < 3; i++) {
    out.push({
      path: `fixture/tie-${i}.md`,
      id: idOf(999 - i),
      summary: "Tie breaker",
      body: "identical text for a tie in bm25",
    });
  }
  return out;
}

/** Up to `n` real files of a corpus folder: summary = the first line, body = the file. */
function corpusFixture(under: string, n: number, from: number): FixtureEntry[] {
  const files = (readdirSync(join(CORPUS, under), { recursive: true }) as string[])
    .filter((path) => path.endsWith(".md"))
    .sort();
  return files.slice(0, n).map((path, i) => {
    const text = readFileSync(join(CORPUS, under, path), "utf8").slice(0, 20_000);
    const first = text.split("\n").find((line) => line.trim() !== "") ?? path;
    return {
      path: `corpus/${path}`,
      id: idOf(from + i),
      summary: first.replace(/^#+\s*/, "").slice(0, 200),
      body: text,
    };
  });
}

/** The table of queries (Russian and English, forms, two words, prefixes, punctuation…). */
const QUERIES = [
  // English, word forms
  "deploy",
  "deploying",
  "deployment",
  "rolled back deploys",
  "rollback",
  "password",
  "passwords",
  "database password",
  "how do I rotate the database password",
  "migrate",
  "migrations",
  "config",
  "configuration",
  "tests",
  "test testing",
  "component components",
  "react",
  "typescript",
  "best practices",
  // Russian, word forms, ё, э
  "откат",
  "откатить релиз",
  "как откатить релиз",
  "релизы",
  "ёлка",
  "ЕЛКА",
  "зелёная",
  "кэш",
  "кеш",
  "сборка",
  "сборки",
  "миграция",
  "миграции базы данных",
  "пароль",
  "документация",
  "компонент",
  "страницы",
  "настройка",
  // prefixes
  "deplo*",
  "migr*",
  "откат*",
  "сбор*",
  "conf*",
  "докум*",
  "компон*",
  "pre-rec*",
  "de*",
  // punctuation and glued words
  "pre-receive",
  "pre receive",
  "don't",
  "v1.2",
  "node.js",
  "C++",
  "snake_case",
  '"deploy" (AND) NEAR',
  "deploy!!! ???",
  "Откат, релиз; сборка.",
  // stop words only, and no hits
  "как в",
  "the",
  "zzqqxxyy",
  "абракадабрагв",
];

/** The page options both engines are asked with (SQLite's `excludeFired` off). */
interface Ask {
  offset: number;
  limit: number;
  budget: number;
  totalCap: number;
}

/** The asks per query: a full ranked page, a second page, and a small budget (broad mode). */
const ASKS: Ask[] = [
  { offset: 0, limit: 50, budget: 5000, totalCap: 10_000 },
  { offset: 3, limit: 5, budget: 5000, totalCap: 10_000 },
  { offset: 0, limit: 0, budget: 5000, totalCap: 10_000 },
  { offset: 0, limit: 10, budget: 1, totalCap: 5 },
  { offset: 2, limit: 10, budget: 2, totalCap: 1000 },
];

/** Both engines over one set of entries. */
class Engines {
  readonly dir = mkdtempSync(join(tmpdir(), "lore-pgtext-"));
  readonly index: EntryIndex = openIndex(join(this.dir, "index.db"));
  readonly raw = new Database(join(this.dir, "index.db"), { readonly: true });
  store!: PgTextStore;

  /** Writes entries to SQLite (one transaction). */
  putSqlite(entries: readonly FixtureEntry[]): void {
    this.index.transaction(() => {
      for (const e of entries) {
        this.index.putFile({
          repo: "r",
          path: e.path,
          blobSha: "0".repeat(40),
          parsed: parsed(e.id, e.summary, e.body),
          diagnostics: [],
        });
      }
    });
  }

  /** The stored entries of SQLite as the PostgreSQL documents (the same ids). */
  documents(ids?: readonly number[]): PgTextDocument[] {
    const rows = this.raw
      .prepare("SELECT file_id, id, summary, body FROM entries ORDER BY file_id")
      .all() as { file_id: number; id: string; summary: string; body: string }[];
    return rows
      .filter((r) => ids === undefined || ids.includes(r.file_id))
      .map((r) => ({ docId: r.file_id, entryId: r.id, summary: r.summary, body: r.body }));
  }

  fileId(path: string): number {
    return (
      this.raw.prepare("SELECT file_id FROM files WHERE path = ?").get(path) as { file_id: number }
    ).file_id;
  }

  sqlitePage(query: string, ask: Ask, check: number[]): TextPage {
    return this.index.text.page(parseSearchQuery(query).terms, {
      ...ask,
      excludeFired: false,
      check,
    });
  }

  sqliteBm25(query: string): Map<number, number> {
    const expr = orExpression(parseSearchQuery(query).terms);
    const rows = this.raw
      .prepare("SELECT rowid, bm25(entry_text, 3.0, 1.0) FROM entry_text WHERE entry_text MATCH ?")
      .raw()
      .all(expr) as [number, number][];
    return new Map(rows);
  }

  close(): void {
    this.raw.close();
    this.index.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Asserts full-precision bm25 parity of one query; answers how many rows were compared. */
async function expectSameBm25(engines: Engines, query: string, store = engines.store) {
  const want = engines.sqliteBm25(query);
  const got = await store.bm25(parseSearchQuery(query).terms);
  expect(
    [...got.keys()].sort((a, b) => a - b),
    query,
  ).toEqual([...want.keys()].sort((a, b) => a - b));
  for (const [id, score] of want) {
    const mine = got.get(id) as number;
    expect(Math.abs(mine - score), `${query}: row ${id}`).toBeLessThanOrEqual(
      TOLERANCE * Math.max(1e-6, Math.abs(score)),
    );
  }
  return want.size;
}

/** Asserts page parity of every query and ask; answers the rows compared. */
async function expectSamePages(engines: Engines): Promise<{ queries: number; rows: number }> {
  let rows = 0;
  const check = engines
    .documents()
    .map((d) => d.docId)
    .filter((id) => id % 3 === 0);
  for (const query of QUERIES) {
    for (const ask of ASKS) {
      const want = engines.sqlitePage(query, ask, check);
      const got = await engines.store.page(parseSearchQuery(query).terms, { ...ask, check });
      expect(got, `${query} ${JSON.stringify(ask)}`).toEqual(want);
      rows += want.rows.length;
    }
    await expectSameBm25(engines, query);
  }
  return { queries: QUERIES.length, rows };
}

if (TEST_PG_URL === undefined) {
  describe.skip(PG_SKIP_REASON, () => {
    it("gives the same full-text hits on PostgreSQL as on SQLite", () => undefined);
  });
} else {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase("pgtext");
  });
  afterAll(async () => {
    await db?.drop();
  });

  /** Both engines over entries, PostgreSQL in a fresh schema. */
  async function load(entries: readonly FixtureEntry[]): Promise<Engines> {
    const engines = new Engines();
    engines.putSqlite(entries);
    const schema = await db.schema();
    engines.store = await openPgTextStore(schema.url);
    await engines.store.put(engines.documents());
    return engines;
  }

  describe("full text on PostgreSQL: the built-in fixture", () => {
    let engines: Engines;
    beforeAll(async () => {
      engines = await load(builtInFixture());
    });
    afterAll(async () => {
      await engines?.store.close();
      engines?.close();
    });

    it("has at least 40 queries, some with hits, some broad, some with none", async () => {
      expect(QUERIES.length).toBeGreaterThanOrEqual(40);
      const pages = QUERIES.map((q) => engines.sqlitePage(q, ASKS[0] as Ask, []));
      expect(pages.filter((p) => p.rows.length > 0).length).toBeGreaterThan(25);
      expect(pages.filter((p) => p.total === 0).length).toBeGreaterThanOrEqual(3);
      const broad = QUERIES.map((q) => engines.sqlitePage(q, ASKS[3] as Ask, []));
      expect(broad.filter((p) => p.mode === "broad").length).toBeGreaterThan(3);
      // the tie entries come in entry id order, not insertion order
      const tie = engines.sqlitePage("tie breaker", ASKS[0] as Ask, []);
      const ids = tie.rows.map((r) => r.fileId);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      expect(await engines.store.count()).toBe(engines.documents().length);
    });

    it("answers every query hit for hit as SQLite does", async () => {
      const { rows } = await expectSamePages(engines);
      expect(rows).toBeGreaterThan(100);
      expect(
        await engines.store.page(parseSearchQuery("tie breaker").terms, {
          ...(ASKS[0] as Ask),
          check: [],
        }),
      ).toEqual(engines.sqlitePage("tie breaker", ASKS[0] as Ask, []));
    });

    it("keeps parity when entries are replaced and deleted, and equals a fresh load", async () => {
      const entries = builtInFixture();
      const changed = entries.slice(0, 4).map((e, i) => ({
        ...e,
        summary: `${e.summary} ${i % 2 === 0 ? "обновлено" : "updated"}`,
        body: `${e.body} Deploy again: deploying is routine now. Релиз собран.`,
      }));
      engines.putSqlite(changed);
      const gone = [entries[5], entries[9]].map((e) => (e as FixtureEntry).path);
      const goneIds = gone.map((path) => engines.fileId(path));
      engines.index.transaction(() => {
        for (const path of gone) engines.index.deleteFile("r", path);
      });
      const changedIds = changed.map((e) => engines.fileId(e.path));
      await engines.store.put(engines.documents(changedIds));
      expect(await engines.store.remove([...goneIds, 999_999])).toBe(2);
      await expectSamePages(engines);
      // the same rows loaded afresh score exactly alike
      const fresh = await openPgTextStore((await db.schema()).url);
      try {
        await fresh.put(engines.documents());
        for (const query of QUERIES) {
          const terms = parseSearchQuery(query).terms;
          expect(await fresh.bm25(terms), query).toEqual(await engines.store.bm25(terms));
        }
      } finally {
        await fresh.close();
      }
    });
  });

  if (!CORPUS_PRESENT) {
    describe.skip(`full text on PostgreSQL: the corpus (skipped: ${CORPUS} is absent; set LORE_CORPUS_DIR)`, () => {
      it("answers every query hit for hit as SQLite does", () => undefined);
    });
  } else {
    describe("full text on PostgreSQL: real files of the corpus (Russian and English)", () => {
      let engines: Engines;
      beforeAll(async () => {
        const entries = [
          ...builtInFixture(),
          ...corpusFixture("russian/", 200, 10_000),
          ...corpusFixture("cursorrules/", 200, 20_000),
        ];
        engines = await load(entries);
      }, 120_000);
      afterAll(async () => {
        await engines?.store.close();
        engines?.close();
      });

      it("answers every query hit for hit as SQLite does", async () => {
        expect(engines.documents().length).toBeGreaterThan(300);
        const { rows } = await expectSamePages(engines);
        expect(rows).toBeGreaterThan(1000);
      }, 300_000);
    });
  }
}
