/**
 * Word forms of contract words: every inflected form of a Russian noun (six cases, two
 * numbers), verb (the persons of the present or simple future, the infinitive, the past)
 * or adjective (genders and plural in six cases) and of an English word (plural, `-ing`,
 * `-ed`) fires the `on_query` word written in its dictionary form.
 *
 * The Russian forms come from a real morphology source — the OpenCorpora dictionary of
 * the `az` package — never from Lore's stemmer; `деплой` / `деплоить`, which the
 * dictionary lacks, and the English forms are written by hand.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import Az from "az";
import { beforeAll, describe, expect, it } from "vitest";
import type { ContractClause } from "../../../src/core/entry/entry.js";
import { matchContract } from "../../../src/core/recall/contract-match.js";
import { parseSearchQuery } from "../../../src/core/recall/search-query.js";

const CASES = ["nomn", "gent", "datv", "accs", "ablt", "loct"];
const PERSONS = [
  ["1per", "sing"],
  ["2per", "sing"],
  ["3per", "sing"],
  ["1per", "plur"],
  ["2per", "plur"],
  ["3per", "plur"],
];

const NOUNS = [
  "релиз",
  "ключ",
  "база",
  "пароль",
  "сервер",
  "ветка",
  "миграция",
  "сборка",
  "ошибка",
  "очередь",
  "таблица",
  "запрос",
  "тест",
  "файл",
  "пакет",
  "секрет",
  "токен",
  "окружение",
  "доступ",
  "журнал",
  "пятница",
  "задача",
  "кластер",
  "индекс",
  "ротация",
  "откат",
  "репозиторий",
  "хранилище",
  "контейнер",
  "зависимость",
];
const VERBS = [
  "откатить",
  "писать",
  "читать",
  "ходить",
  "любить",
  "проверять",
  "запускать",
  "обновить",
  "удалить",
  "хранить",
  "платить",
  "чистить",
  "строить",
  "настроить",
  "выпустить",
  "отправить",
  "сломать",
  "собирать",
  "деплоить",
  "тестировать",
];
const ADJECTIVES = ["новый", "медленный", "тестовый", "локальный", "сетевой", "пустой"];

/** Forms the dictionary lacks, written by hand (the paradigm of `бой` and of `строить`). */
const HAND_RU: Record<string, string[]> = {
  деплой: [
    "деплой",
    "деплоя",
    "деплою",
    "деплоем",
    "деплое",
    "деплои",
    "деплоев",
    "деплоям",
    "деплоями",
    "деплоях",
  ],
  деплоить: [
    "деплоить",
    "деплою",
    "деплоишь",
    "деплоит",
    "деплоим",
    "деплоите",
    "деплоят",
    "деплоил",
    "деплоила",
    "деплоили",
  ],
};

/** English words and their plural, `-ing`, `-ed` (and third person) forms, by hand. */
const ENGLISH: Record<string, string[]> = {
  deploy: ["deploys", "deploying", "deployed"],
  rotate: ["rotates", "rotating", "rotated"],
  release: ["releases", "releasing", "released"],
  migrate: ["migrates", "migrating", "migrated"],
  retry: ["retries", "retrying", "retried"],
  build: ["builds", "building"],
  key: ["keys"],
  password: ["passwords"],
  database: ["databases"],
  query: ["queries", "querying", "queried"],
  cache: ["caches", "caching", "cached"],
  test: ["tests", "testing", "tested"],
  index: ["indexes", "indexing", "indexed"],
  commit: ["commits", "committing", "committed"],
  branch: ["branches", "branching", "branched"],
  webhook: ["webhooks"],
  fail: ["fails", "failing", "failed"],
  install: ["installs", "installing", "installed"],
  upgrade: ["upgrades", "upgrading", "upgraded"],
  configure: ["configures", "configuring", "configured"],
};

const dicts = join(dirname(createRequire(import.meta.url).resolve("az")), "..", "dicts");

function forms(word: string, grammemeSets: string[][], pos: string): string[] {
  const parse = Az.Morph(word).find((p) => p.tag[pos]);
  if (parse === undefined) throw new Error(`the dictionary has no ${pos} ${word}`);
  const out = new Set<string>([word]);
  for (const grammemes of grammemeSets) {
    const form = parse.inflect(grammemes);
    if (form !== false) out.add(form.word);
  }
  return [...out];
}

function nounForms(word: string): string[] {
  return forms(
    word,
    ["sing", "plur"].flatMap((n) => CASES.map((c) => [c, n])),
    "NOUN",
  );
}

function verbForms(word: string): string[] {
  const tenses = ["pres", "futr"].flatMap((t) => PERSONS.map((p) => [t, ...p]));
  const past = [
    ["past", "masc"],
    ["past", "femn"],
    ["past", "plur"],
  ];
  return forms(word, [...tenses, ...past], "INFN");
}

function adjectiveForms(word: string): string[] {
  const genders = ["masc", "femn", "neut"].flatMap((g) => CASES.map((c) => [c, g, "sing"]));
  return forms(word, [...genders, ...CASES.map((c) => [c, "plur"])], "ADJF");
}

function fires(word: string, query: string): boolean {
  const contract: ContractClause[] = [{ mechanism: "on_query", params: { words: [word] } }];
  return matchContract(contract, { queryStems: parseSearchQuery(query).stems }).length > 0;
}

describe("every word form fires its contract word", () => {
  const table = new Map<string, string[]>();

  beforeAll(async () => {
    await new Promise<void>((resolve, reject) =>
      Az.Morph.init(dicts, (error) => (error ? reject(error) : resolve())),
    );
    for (const noun of NOUNS) table.set(noun, nounForms(noun));
    for (const verb of VERBS) table.set(verb, HAND_RU[verb] ?? verbForms(verb));
    for (const adjective of ADJECTIVES) table.set(adjective, adjectiveForms(adjective));
    table.set("деплой", HAND_RU.деплой as string[]);
    for (const [word, list] of Object.entries(ENGLISH)) table.set(word, [word, ...list]);
  });

  it("builds a table of at least 30 words with all their forms", () => {
    expect(table.size).toBeGreaterThanOrEqual(30);
    // Nouns: 6 cases × 2 numbers give at least 8 distinct spellings each.
    for (const noun of NOUNS) expect((table.get(noun) ?? []).length).toBeGreaterThanOrEqual(6);
    for (const verb of VERBS) expect((table.get(verb) ?? []).length).toBeGreaterThanOrEqual(8);
    expect(table.get("ключ")).toEqual(
      expect.arrayContaining(["ключа", "ключу", "ключом", "ключе", "ключи", "ключей", "ключам"]),
    );
    expect(table.get("писать")).toEqual(
      expect.arrayContaining(["пишу", "пишешь", "пишет", "пишем", "пишете", "пишут"]),
    );
  });

  it("fires on each form (Russian nouns, verbs, adjectives; English)", () => {
    const misses: string[] = [];
    let checked = 0;
    for (const [word, list] of table) {
      for (const form of list) {
        checked++;
        if (!fires(word, form)) misses.push(`${word} ← ${form}`);
      }
    }
    expect(misses).toEqual([]);
    expect(checked).toBeGreaterThan(600);
  });

  it("fires `деплой` on the forms the Snowball stem alone missed, capitalised, with ё", () => {
    for (const form of ["деплою", "деплоя", "деплоем", "деплои", "деплоев", "ДЕПЛОЯМИ"]) {
      expect(fires("деплой", `как ${form} в пятницу`)).toBe(true);
    }
    expect(fires("зелёный", "зеленого")).toBe(true);
    expect(fires("релиз", "релизов")).toBe(true);
  });

  it("fires a derived verb on its noun (a bonus): деплоить, деплоим → деплой", () => {
    expect(fires("деплой", "деплоить")).toBe(true);
    expect(fires("деплой", "деплоим")).toBe(true);
  });

  it("does not fire on unrelated words that share letters", () => {
    expect(fires("ключ", "клюква")).toBe(false);
    expect(fires("релиз", "реле")).toBe(false);
    expect(fires("база", "бас")).toBe(false);
    expect(fires("rotate", "rot")).toBe(false);
  });
});
