import { createSeededRandom } from "./seeded-random.js";

/**
 * English words for synthetic entries, most frequent first: function words, then the
 * vocabulary of engineering notes ("Russian and English words").
 */
const ENGLISH_HEAD = `the of and to a in is for that it on with as be this by not or are from
at you use when if run we an can will but all should do which before after only so no
build test deploy release commit branch merge review config file service server client
database index query cache error failure timeout retry request response token user team
repository migration schema table column version package module function method class type
value field key path folder script command option flag environment variable secret
pipeline job step stage worker queue message event handler hook check lint format log
metric alert dashboard trace span latency memory disk network port host container image
cluster node pod namespace volume backup restore rollback upgrade downgrade patch fix bug
issue incident outage postmortem runbook checklist owner approval permission role access
policy rule limit quota budget cost performance benchmark profile flame allocation leak
thread lock mutex race deadlock transaction isolation replica primary shard partition
consistency snapshot stream batch chunk buffer encoding unicode parser grammar token
compiler linker bundler transpile minify sourcemap browser frontend backend api endpoint
route middleware session cookie header payload schema validation serialization json yaml
toml markdown template render component state store reducer effect hook prop context
deploying deployed deploys building builds tested testing merged merging reviewed reviews
configured configuring failed failing retried retries released releasing migrated migrating
cached caching indexed indexing queried querying logged logging traced tracing patched
docker kubernetes terraform ansible helm nginx postgres sqlite redis kafka rabbitmq grpc
graphql webpack vite rollup esbuild typescript javascript python golang rust java kotlin
swift node deno bun npm pnpm yarn cargo pip poetry gradle maven make cmake bazel
github gitlab gitea jenkins actions runner artifact registry mirror proxy vpn dns tls
certificate rotation expiry renewal signing verification checksum hash digest signature
flaky regression bisect revert cherry rebase squash conflict resolution stash worktree
staging production canary blue green feature toggle experiment rollout gradual percentage
always never usually carefully quickly slowly manually automatically locally remotely
first second third last next previous new old large small fast slow safe unsafe broken`;

/**
 * Russian words, most frequent first, including several inflected forms of the same stem so
 * the Snowball stemmer has work to do (e.g. «откат», «откатить», «откатывать»).
 */
const RUSSIAN_HEAD = `и в не на что с по для это как к из от при то или но же так если уже
только после перед когда где все есть быть нужно можно надо нельзя всегда никогда
сборка сборки сборку собрать тест тесты тестов проверка проверки проверить выкладка
выкладки развёртывание развертывания развернуть откат отката откатить откатывать
релиз релиза релизы ветка ветки ветку слияние слияния слить коммит коммита коммиты
рецензия рецензии настройка настройки настроить файл файла файлы сервис сервиса сервер
сервера клиент клиента база базы данных индекс индекса запрос запроса запросы кэш кэша
ошибка ошибки ошибку сбой сбоя таймаут повтор повторить ответ токен пользователь
пользователя команда команды репозиторий репозитория миграция миграции миграцию схема
схемы таблица таблицы столбец версия версии пакет пакета модуль функция метод класс тип
значение поле ключ путь каталог скрипт параметр флаг окружение переменная секрет
конвейер задача шаг этап очередь сообщение событие обработчик журнал метрика оповещение
трассировка задержка память диск сеть порт узел контейнер образ кластер том резервная
копия восстановление обновление исправление инцидент авария разбор владелец одобрение
права доступ политика правило предел квота бюджет стоимость производительность профиль
утечка поток блокировка гонка транзакция изоляция реплика шард раздел согласованность
снимок пакетная буфер кодировка разборщик грамматика компилятор сборщик браузер
интерфейс маршрут сессия заголовок проверяем проверили собираем собрали выкатили
выкатываем откатили откатываем настроили настраиваем упал упали падает падают
медленно быстро вручную автоматически локально удалённо осторожно обязательно
ёлка ёж всё ещё зелёный зелёная черёмуха счёт счётчик отчёт отчёта учёт расчёт
первый второй последний следующий новый старый большой маленький быстрый медленный
безопасный опасный сломанный рабочий основной запасной главный общий личный`;

/** Tool names used in `on_tool` contracts (agent tool calls and MCP tool names). */
export const TOOL_NAMES: readonly string[] = [
  "Bash",
  "Edit",
  "Write",
  "Read",
  "Grep",
  "Glob",
  "WebFetch",
  "run_migration",
  "deploy_service",
  "rollback_release",
  "create_pull_request",
  "merge_pull_request",
  "run_tests",
  "build_image",
  "push_image",
  "query_database",
  "restart_pod",
  "scale_deployment",
  "rotate_secret",
  "open_incident",
  "mcp__github__create_issue",
  "mcp__github__get_file_contents",
  "mcp__postgres__query",
  "mcp__sentry__get_issue",
  "mcp__slack__post_message",
  "terraform_apply",
  "terraform_plan",
  "kubectl_apply",
  "helm_upgrade",
  "npm_publish",
  "cargo_build",
  "pytest_run",
  "lint_fix",
  "format_code",
  "search_logs",
  "fetch_metrics",
  "page_oncall",
  "clear_cache",
  "reindex_search",
  "backup_database",
];

const ENGLISH_SYLLABLES =
  "ka lo mi ne ru ta ve zo pri stra gen dor fel mar quin tor bel cas dem fil"
    .split(" ")
    .concat("grav hul jor kel lum nor pel rix sol tun var wen xo yel zan".split(" "));

const RUSSIAN_SYLLABLES = "ка ло ми не ру та ве зо при стра ген дор фел мар кин тор бел кас дем фил"
  .split(" ")
  .concat("грав хул жор кел лум нор пел рих сол тун вар вен шо ёл зан".split(" "));

/** One language's vocabulary, ordered by rank (index 0 = most frequent). */
export interface Vocabulary {
  lang: "en" | "ru";
  words: readonly string[];
  /** How many leading words are real words (the rest are synthetic, rare by rank). */
  realCount: number;
}

function splitWords(text: string): string[] {
  const seen = new Set<string>();
  for (const w of text.split(/\s+/)) if (w.length > 0) seen.add(w);
  return [...seen];
}

function syntheticTail(
  syllables: readonly string[],
  count: number,
  seed: number,
  taken: Set<string>,
): string[] {
  const random = createSeededRandom(seed);
  const out: string[] = [];
  while (out.length < count) {
    const parts = 2 + random.int(3);
    let w = "";
    for (let i = 0; i < parts; i++) w += random.pick(syllables);
    if (!taken.has(w)) {
      taken.add(w);
      out.push(w);
    }
  }
  return out;
}

/**
 * Builds the English and Russian vocabularies: the built-in word lists followed by
 * `tailSize` synthetic words per language (pronounceable syllable strings, deterministic),
 * which give the long tail of rare words that Zipf's law needs. Default tail: 20,000.
 */
export function buildVocabularies(tailSize = 20_000): { en: Vocabulary; ru: Vocabulary } {
  const en = splitWords(ENGLISH_HEAD);
  const ru = splitWords(RUSSIAN_HEAD);
  const enTaken = new Set(en);
  const ruTaken = new Set(ru);
  return {
    en: {
      lang: "en",
      words: en.concat(syntheticTail(ENGLISH_SYLLABLES, tailSize, 11, enTaken)),
      realCount: en.length,
    },
    ru: {
      lang: "ru",
      words: ru.concat(syntheticTail(RUSSIAN_SYLLABLES, tailSize, 13, ruTaken)),
      realCount: ru.length,
    },
  };
}
