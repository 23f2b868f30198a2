import { fillTemplate, type LocalizedText } from "./localized-text.js";

/**
 * The closed set of refusal codes a Lore surface can answer with. Each surface maps them
 * once: HTTP status, MCP `isError` result, CLI exit code (STYLE.md habit 4).
 *
 * `kind` groups them for those mappings: `invalid_input` (caller's fault, 400 / exit 2),
 * `not_found` (404 / exit 3), `conflict` (409 / exit 4), `forbidden` (403 / exit 5),
 * `unauthenticated` (401 / exit 5: no token, or one that is not valid),
 * `unavailable` (503 / exit 6), `internal` (500 / exit 1), `rate_limited` (429 with
 * `Retry-After` / exit 6), `license_required` (402 / exit 5: the server's edition lacks a paid
 * address, seed 004 "Интерфейс" — distinct from a permission refusal).
 */
export const ERROR_CODES = {
  invalid_input: "invalid_input",
  invalid_entry: "invalid_input",
  empty_query: "invalid_input",
  invalid_cursor: "invalid_input",
  invalid_limit: "invalid_input",
  config_invalid: "invalid_input",
  not_a_repository: "invalid_input",
  path_not_found: "not_found",
  entry_not_found: "not_found",
  repo_not_indexed: "not_found",
  ambiguous_id: "conflict",
  file_exists: "conflict",
  root_args_conflict: "invalid_input",
  path_outside_root: "invalid_input",
  unknown_root: "not_found",
  no_primary_root: "not_found",
  root_missing: "not_found",
  read_only_root: "forbidden",
  root_not_configured: "forbidden",
  invalid_slug: "invalid_input",
  forge_not_found: "not_found",
  forge_conflict: "conflict",
  default_branch_mismatch: "conflict",
  forge_unauthorized: "forbidden",
  auth_file_insecure: "forbidden",
  path_not_writable: "forbidden",
  forge_unavailable: "unavailable",
  file_too_large_for_api: "unavailable",
  cache_invalid: "unavailable",
  project_unknown: "not_found",
  page_not_found: "not_found",
  fetch_failed: "unavailable",
  federation_disabled: "unavailable",
  file_busy: "unavailable",
  address_in_use: "unavailable",
  index_of_another_server: "conflict",
  remote_file_too_large: "unavailable",
  answer_too_large: "invalid_input",
  request_too_large: "invalid_input",
  forge_worktree_dirty: "conflict",
  cancelled: "unavailable",
  token_required: "unauthenticated",
  token_invalid: "unauthenticated",
  token_expired: "unauthenticated",
  token_in_url: "invalid_input",
  forbidden: "forbidden",
  repo_not_found: "not_found",
  repo_exists: "conflict",
  invalid_repo_name: "invalid_input",
  user_not_found: "not_found",
  user_exists: "conflict",
  group_not_found: "not_found",
  group_exists: "conflict",
  token_not_found: "not_found",
  key_invalid: "invalid_input",
  key_exists: "conflict",
  key_not_found: "not_found",
  branch_protected: "forbidden",
  listen_needs_auth: "invalid_input",
  route_not_found: "not_found",
  server_busy: "unavailable",
  ssh_command_refused: "invalid_input",
  draft_not_found: "not_found",
  draft_limit_reached: "conflict",
  draft_too_large: "invalid_input",
  draft_id_taken: "conflict",
  unknown_field: "invalid_input",
  branch_not_found: "not_found",
  branch_exists: "conflict",
  merge_conflict: "conflict",
  mr_not_found: "not_found",
  mr_not_open: "conflict",
  approvals_required: "forbidden",
  limit_not_found: "not_found",
  last_admin: "conflict",
  batch_too_large: "invalid_input",
  rate_limited: "rate_limited",
  license_required: "license_required",
  license_invalid: "invalid_input",
  secret_detected: "invalid_input",
  csrf_failed: "forbidden",
  session_expired: "unauthenticated",
  database_unavailable: "unavailable",
  migration_target_not_empty: "conflict",
  migration_mismatch: "internal",
  server_not_configured: "invalid_input",
  server_unreachable: "unavailable",
  forge_failed: "internal",
  git_failed: "internal",
  index_failed: "internal",
  internal: "internal",
} as const;

/** One refusal code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** A refusal's family, for surfaces that map errors to statuses and exit codes. */
export type ErrorKind = (typeof ERROR_CODES)[ErrorCode];

const MESSAGES: Record<ErrorCode, LocalizedText> = {
  invalid_input: { en: "invalid input: {reason}", ru: "неверный ввод: {reason_ru}" },
  invalid_entry: {
    en: "the entry is refused: {count} problem(s) found",
    ru: "запись отклонена: найдено замечаний — {count}",
  },
  empty_query: {
    en: "the query has no words to search for; give a word or a tool name",
    ru: "в запросе нет слов для поиска; укажите слово или имя инструмента",
  },
  invalid_cursor: {
    en: "the cursor was not given for this query; start without a cursor",
    ru: "курсор выдан не для этого запроса; начните без курсора",
  },
  invalid_limit: {
    en: "limit must be a whole number from 1 to {max}",
    ru: "limit должен быть целым числом от 1 до {max}",
  },
  config_invalid: { en: "configuration error: {reason}", ru: "ошибка настройки: {reason_ru}" },
  not_a_repository: {
    en: "{path} is neither a git repository nor a folder with .gitriver/knowledge/",
    ru: "{path} — не репозиторий git и не папка с .gitriver/knowledge/",
  },
  path_not_found: {
    en: "no such file or folder: {path}",
    ru: "нет такого файла или папки: {path}",
  },
  entry_not_found: { en: "no entry with id {id}", ru: "нет записи с идентификатором {id}" },
  repo_not_indexed: {
    en: "no indexed repository is {repo}; index it first (lore index in its folder), see lore repos",
    ru: "среди проиндексированных нет репозитория {repo}; сначала проиндексируйте его (lore index в его папке), см. lore repos",
  },
  ambiguous_id: {
    en: "id {id} is held by entries of {count} sources ({repos}); name one with --repo",
    ru: "идентификатор {id} есть у записей {count} источников ({repos}); выберите один через --repo",
  },
  file_exists: { en: "{path} already exists", ru: "{path} уже существует" },
  root_args_conflict: {
    en: "give knowledge_root_id or knowledge_path, not both",
    ru: "укажите knowledge_root_id или knowledge_path, но не оба сразу",
  },
  path_outside_root: {
    en: "file_path “{path}” leads outside root {root} ({reason}); give a path relative to its knowledge/ folder",
    ru: "file_path «{path}» выходит за корень {root} ({reason}); укажите путь относительно его папки knowledge/",
  },
  unknown_root: {
    en: "no knowledge root with id “{id}”; configured: {known}",
    ru: "нет корня знаний с id «{id}»; настроены: {known}",
  },
  no_primary_root: {
    en: "no primary knowledge root is configured; set [knowledge] primary in lore.toml or run lore init --notes PATH",
    ru: "основной корень знаний не настроен; задайте [knowledge] primary в lore.toml или выполните lore init --notes PATH",
  },
  root_missing: {
    en: "the folder of knowledge root {root} does not exist: {path}",
    ru: "папки корня знаний {root} нет: {path}",
  },
  read_only_root: {
    en: "knowledge root {root} is read-only: writes go to the primary root only; nothing was written",
    ru: "корень знаний {root} только для чтения: запись — только в основной корень; ничего не записано",
  },
  root_not_configured: {
    en: "knowledge_path {path} is not one of the configured roots; over HTTP only configured roots are read",
    ru: "knowledge_path {path} — не один из настроенных корней; по HTTP читаются только настроенные корни",
  },
  invalid_slug: {
    en: "wiki slug “{slug}” is refused: {reason}",
    ru: "slug вики «{slug}» отклонён: {reason_ru}",
  },
  forge_not_found: {
    en: "repository {repo} is not on the forge",
    ru: "репозитория {repo} нет на forge",
  },
  forge_conflict: {
    en: "{path} in {repo} changed since it was read ({reason}); read it again and retry",
    ru: "{path} в {repo} изменился после чтения ({reason_ru}); прочитайте заново и повторите",
  },
  default_branch_mismatch: {
    en: "repository {repo}: the commit went to branch {branch}, but the default branch is {default_branch}",
    ru: "репозиторий {repo}: коммит попал в ветку {branch}, а ветка по умолчанию — {default_branch}",
  },
  forge_unauthorized: {
    en: "the forge refused the token (HTTP {status}); check the token in auth.toml",
    ru: "forge не принял токен (HTTP {status}); проверьте токен в auth.toml",
  },
  path_not_writable: {
    en: "{path} cannot be written ({reason}); {hint}",
    ru: "в {path} нельзя писать ({reason_ru}); {hint_ru}",
  },
  auth_file_insecure: {
    en: "{path} is readable by group or others (mode {mode}); run: chmod 600 {path}",
    ru: "{path} доступен группе или всем (режим {mode}); выполните: chmod 600 {path}",
  },
  forge_unavailable: {
    en: "the forge is unavailable: {reason}",
    ru: "forge недоступен: {reason_ru}",
  },
  file_too_large_for_api: {
    en: "{path} in {repo} is too large for the forge's contents API ({size} bytes) and the raw read failed",
    ru: "{path} в {repo} слишком велик для contents API forge ({size} байт), а чтение raw не удалось",
  },
  cache_invalid: {
    en: "the projects cache {path} cannot be read ({reason}); run: lore sync",
    ru: "кэш проектов {path} не читается ({reason_ru}); выполните: lore sync",
  },
  token_required: {
    en: "a token is required: send Authorization: Bearer <token> (git: the token as the password)",
    ru: "нужен токен: передайте Authorization: Bearer <токен> (git: токен как пароль)",
  },
  token_invalid: {
    en: "the token is not valid (unknown or revoked); create one with lore token create",
    ru: "токен недействителен (неизвестен или отозван); создайте новый: lore token create",
  },
  token_expired: {
    en: "the token expired at {expired_at}; create a new one with lore token create",
    ru: "срок токена истёк {expired_at}; создайте новый: lore token create",
  },
  token_in_url: {
    en: "a token in the URL is refused (URLs end up in logs); send it in the Authorization header",
    ru: "токен в адресе запроса не принимается (адреса попадают в журналы); передайте его в заголовке Authorization",
  },
  forbidden: {
    en: "not allowed: this call needs {missing}",
    ru: "нет прав: для этого вызова нужно {missing}",
  },
  repo_not_found: { en: "no repository {repo}", ru: "нет репозитория {repo}" },
  repo_exists: {
    en: "the repository {repo} already exists",
    ru: "репозиторий {repo} уже существует",
  },
  invalid_repo_name: {
    en: "{name} is not a repository name: {reason}",
    ru: "{name} не годится в имя репозитория: {reason_ru}",
  },
  user_not_found: { en: "no user {user}", ru: "нет пользователя {user}" },
  user_exists: { en: "the user {user} already exists", ru: "пользователь {user} уже существует" },
  group_not_found: { en: "no group {group}", ru: "нет группы {group}" },
  group_exists: { en: "the group {group} already exists", ru: "группа {group} уже существует" },
  token_not_found: { en: "no token {token}", ru: "нет токена {token}" },
  key_invalid: {
    en: "not an SSH public key: {reason}",
    ru: "это не открытый ключ SSH: {reason_ru}",
  },
  key_exists: {
    en: "the SSH key {fingerprint} is already registered",
    ru: "ключ SSH {fingerprint} уже зарегистрирован",
  },
  key_not_found: { en: "no SSH key {key}", ru: "нет ключа SSH {key}" },
  branch_protected: {
    en: "{branch} is protected: {reason}",
    ru: "ветка {branch} защищена: {reason_ru}",
  },
  listen_needs_auth: {
    en: "refusing to listen on {host}: a non-loopback address needs users and tokens first (lore user add, lore token create)",
    ru: "отказ слушать {host}: для адреса вне loopback сначала нужны пользователи и токены (lore user add, lore token create)",
  },
  route_not_found: {
    en: "no such endpoint: {method} {path}; see GET /api/v1/openapi.json (git over HTTP serves /OWNER/NAME.git/info/refs, git-upload-pack and git-receive-pack only)",
    ru: "нет такого адреса: {method} {path}; см. GET /api/v1/openapi.json (git по HTTP обслуживает только /OWNER/NAME.git/info/refs, git-upload-pack и git-receive-pack)",
  },
  server_busy: {
    en: "the server is busy: {running} git processes are running and {queued} are waiting; try again shortly",
    ru: "сервер занят: работают {running} процессов git и ещё {queued} ждут; повторите чуть позже",
  },
  ssh_command_refused: {
    en: "this SSH server runs git-upload-pack and git-receive-pack of one repository only (e.g. git clone ssh://git@HOST:PORT/OWNER/NAME.git); refused: {command}",
    ru: "этот сервер SSH выполняет только git-upload-pack и git-receive-pack одного репозитория (например, git clone ssh://git@HOST:PORT/OWNER/NAME.git); отклонено: {command}",
  },
  draft_not_found: {
    en: "no draft {id} in {repo}",
    ru: "в {repo} нет черновика {id}",
  },
  draft_limit_reached: {
    en: "{author} already holds {count} drafts, the limit is {limit}; deliver or remove some (lore deliver, lore draft rm), or ask an admin to raise the limit",
    ru: "у {author} уже {count} черновиков при пределе {limit}; доставьте или снимите часть (lore deliver, lore draft rm) либо попросите администратора поднять предел",
  },
  draft_too_large: {
    en: "the draft's file would be {size} bytes, over the {limit}-byte limit of one entry file (frontmatter included); shorten the body",
    ru: "файл черновика занял бы {size} байт, больше предела {limit} байт на файл записи (вместе с заголовком); сократите тело",
  },
  draft_id_taken: {
    en: "id {id} is already held by {path} in {repo}; leave id out and one is assigned",
    ru: "идентификатор {id} уже занят файлом {path} в {repo}; не указывайте id — он будет назначен",
  },
  unknown_field: {
    en: "unknown field “{field}”{hint}",
    ru: "неизвестное поле «{field}»{hint_ru}",
  },
  branch_not_found: {
    en: "no branch {branch} in {repo}",
    ru: "в {repo} нет ветки {branch}",
  },
  branch_exists: {
    en: "branch {branch} already exists in {repo}; give another label",
    ru: "ветка {branch} уже есть в {repo}; укажите другую метку",
  },
  merge_conflict: {
    en: "{source} cannot be merged into {target}: they conflict in {paths}; merge {target} into {source}, resolve, push, and merge again",
    ru: "{source} не сливается в {target}: конфликт в {paths}; слейте {target} в {source}, разрешите конфликт, отправьте и повторите слияние",
  },
  mr_not_found: {
    en: "no merge request #{number} in {repo}",
    ru: "в {repo} нет запроса на слияние #{number}",
  },
  mr_not_open: {
    en: "merge request #{number} is {state}, not open",
    ru: "запрос на слияние #{number} уже не открыт ({state_ru})",
  },
  approvals_required: {
    en: "{target} needs {required} approval(s) before a merge; #{number} has {count}",
    ru: "для слияния в {target} нужно одобрений: {required}; у #{number} — {count}",
  },
  limit_not_found: {
    en: "no draft limit is set for {subject}; the default ({default}) applies",
    ru: "для {subject} предел черновиков не задан; действует предел по умолчанию ({default})",
  },
  server_not_configured: {
    en: "the team server is not set up here: {missing}",
    ru: "сервер команды здесь не настроен: {missing_ru}",
  },
  server_unreachable: {
    en: "the team server {url} does not answer ({reason}); start it (lore serve) or fix [server] url; recall still works on local knowledge",
    ru: "сервер команды {url} не отвечает ({reason}); запустите его (lore serve) или исправьте [server] url; recall по-прежнему работает по локальному знанию",
  },
  forge_failed: {
    en: "the forge answered HTTP {status}: {reason}",
    ru: "forge ответил HTTP {status}: {reason_ru}",
  },
  git_failed: { en: "git failed: {reason}", ru: "git завершился с ошибкой: {reason}" },
  index_failed: { en: "the index failed: {reason}", ru: "сбой указателя: {reason_ru}" },
  project_unknown: {
    en: "unknown project: {project} — run sync first",
    ru: "неизвестный проект: {project} — сначала выполните sync",
  },
  page_not_found: { en: "page not found: {where}", ru: "страница не найдена: {where}" },
  fetch_failed: { en: "fetch failed: {reason}", ru: "не удалось прочитать: {reason}" },
  federation_disabled: {
    en: "{tool} disabled — {reason}",
    ru: "{tool} отключён — {reason_ru}",
  },
  file_busy: {
    en: "{path} is being written by another process (waited {seconds} s); try again",
    ru: "{path} сейчас записывает другой процесс (ожидание {seconds} с); повторите",
  },
  index_of_another_server: {
    en: "the index {index} holds the repositories of the team server whose data folder is {other}; this server's is {data}: leave [index] database and LORE_DB unset (each server then keeps <data>/index.db), or name another index file",
    ru: "указатель {index} хранит репозитории командного сервера с папкой данных {other}, а у этого сервера папка {data}: не задавайте [index] database и LORE_DB (тогда каждый сервер держит <data>/index.db) или укажите другой файл указателя",
  },
  address_in_use: {
    en: "cannot listen on {address}: the address is in use (another lore serve?); stop that process, or pick another port: {choices}",
    ru: "не удаётся слушать {address}: адрес занят (другой lore serve?); остановите тот процесс или выберите другой порт: {choices}",
  },
  remote_file_too_large: {
    en: "{path} in {repo} is over the {limit}-byte limit of {what}; it was not read",
    ru: "{path} в {repo} больше предела {limit} байт ({what_ru}); файл не прочитан",
  },
  answer_too_large: {
    en: "the answer would be {size} bytes, over the {limit}-byte budget of one answer; {hint}",
    ru: "ответ занял бы {size} байт, больше бюджета одного ответа {limit} байт; {hint_ru}",
  },
  request_too_large: {
    en: "the request is over the {limit}-byte limit of one {what} ({size}); it was not read, the server goes on",
    ru: "запрос больше предела {what_ru} в {limit} байт ({size_ru}); он не прочитан, сервер работает дальше",
  },
  forge_worktree_dirty: {
    en:
      "{repo}: branch {branch} is checked out in a work tree with uncommitted changes; " +
      "nothing was committed (as git's receive.denyCurrentBranch = updateInstead) — commit or stash them and retry",
    ru:
      "{repo}: ветка {branch} выгружена в рабочее дерево с незакоммиченными изменениями; " +
      "ничего не закоммичено (как receive.denyCurrentBranch = updateInstead в git) — закоммитьте или уберите их и повторите",
  },
  cancelled: {
    en: "the request was cancelled; no further work was started",
    ru: "запрос отменён; дальнейшая работа не начата",
  },
  last_admin: {
    en: "{user} is the server's only site admin and stays; make another first (lore user add NAME --admin)",
    ru: "{user} — единственный администратор сервера и остаётся; сначала заведите другого (lore user add ИМЯ --admin)",
  },
  batch_too_large: {
    en: "a batch holds at most {max} entry ids; this one has {count}",
    ru: "в пачке не больше {max} идентификаторов записей; в этой — {count}",
  },
  rate_limited: {
    en: "too many calls of {route}: at most {limit} a minute per token; try again in {retry_after} s",
    ru: "слишком много обращений к {route}: не больше {limit} в минуту на токен; повторите через {retry_after} с",
  },
  license_required: {
    en: "{feature} {needs} the {edition_needed} edition; Lore runs the {edition} edition here (its licence: [server] license)",
    ru: "{feature_ru} — в редакции {edition_needed}; здесь Lore работает в редакции {edition} (лицензия: [server] license)",
  },
  license_invalid: {
    en: "the licence file {path} is not valid: {reason}",
    ru: "файл лицензии {path} недействителен: {reason_ru}",
  },
  secret_detected: {
    en: "refused: line {line} looks like a secret ({rule}); remove it, nothing was written",
    ru: "отказано: строка {line} похожа на секрет ({rule}); уберите её, ничего не записано",
  },
  csrf_failed: {
    en: "the form's anti-forgery token is missing or wrong; reload the page and try again",
    ru: "маркер защиты формы отсутствует или неверен; обновите страницу и повторите",
  },
  session_expired: {
    en: "the sign-in session has ended; sign in again with a Lore token",
    ru: "сеанс входа закончился; войдите снова с токеном Lore",
  },
  database_unavailable: {
    en: "the server database cannot be reached: {reason}",
    ru: "база данных сервера недоступна: {reason_ru}",
  },
  migration_target_not_empty: {
    en: "the target database {target} already holds Lore data; give an empty database",
    ru: "в целевой базе {target} уже есть данные Lore; укажите пустую базу",
  },
  migration_mismatch: {
    en: "the copy does not match: {table} has {source} rows in the source and {target} in the target",
    ru: "копия не совпадает: в {table} {source} строк в источнике и {target} в цели",
  },
  internal: { en: "internal error: {reason}", ru: "внутренняя ошибка: {reason}" },
};

/**
 * The one error type of Lore: a stable machine code, a message in English and Russian,
 * structured data for clients, and the original `cause` kept.
 */
export class LoreError extends Error {
  /** Stable machine code. */
  readonly code: ErrorCode;
  /** The code's family (see {@link ERROR_CODES}). */
  readonly kind: ErrorKind;
  /** The message in both languages; `message` is the English one. */
  readonly text: LocalizedText;
  /** Structured details for clients (e.g. the diagnostics of a refused entry). */
  readonly data: Record<string, unknown>;

  /**
   * @param code - the machine code.
   * @param params - values for the message template (e.g. `{ id }`); a `<name>_ru` value
   *   fills the Russian text where it differs, else `<name>` is used for both.
   * @param options - `data` for clients and the `cause`; `text` replaces the code's
   *   message template where a surface has a more precise message (an MCP argument
   *   refused by its schema: `limit` must be a whole number from 1 to 50).
   */
  constructor(
    code: ErrorCode,
    params: Record<string, string | number> = {},
    options: { data?: Record<string, unknown>; cause?: unknown; text?: LocalizedText } = {},
  ) {
    const template = MESSAGES[code];
    // `<name>_ru` params fill the Russian template and fall back to `<name>` (as in makeDiagnostic).
    const ruParams: Record<string, string | number> = { ...params };
    for (const [key, value] of Object.entries(params)) {
      if (!key.endsWith("_ru") && ruParams[`${key}_ru`] === undefined)
        ruParams[`${key}_ru`] = value;
    }
    const text = options.text ?? {
      en: fillTemplate(template.en, params),
      ru: fillTemplate(template.ru, ruParams),
    };
    super(text.en, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LoreError";
    this.code = code;
    this.kind = ERROR_CODES[code];
    this.text = text;
    this.data = options.data ?? {};
  }
}

/**
 * Tells whether a value is a {@link LoreError}.
 *
 * @param value - anything caught.
 */
export function isLoreError(value: unknown): value is LoreError {
  return value instanceof LoreError;
}

const SQLITE_BUSY_TEXT: LocalizedText = {
  en: "the index database is busy: another lore process is writing it; try again when it is done",
  ru: "база указателя занята: в неё пишет другой процесс lore; повторите, когда он закончит",
};
const SQLITE_CORRUPT_TEXT: LocalizedText = {
  en: "the index database is damaged; delete it (LORE_DB) and run lore index again — git holds the knowledge",
  ru: "база указателя повреждена; удалите её (LORE_DB) и снова выполните lore index — знания хранятся в git",
};

/** What to say for SQLite's primary result codes (`SQLITE_BUSY_SNAPSHOT` → `SQLITE_BUSY`). */
const SQLITE_REASONS: Record<string, LocalizedText> = {
  SQLITE_BUSY: SQLITE_BUSY_TEXT,
  SQLITE_LOCKED: SQLITE_BUSY_TEXT,
  SQLITE_CORRUPT: SQLITE_CORRUPT_TEXT,
  SQLITE_NOTADB: SQLITE_CORRUPT_TEXT,
  SQLITE_READONLY: {
    en: "the index database is read-only; check the permissions of LORE_DB",
    ru: "база указателя доступна только для чтения; проверьте права на LORE_DB",
  },
  SQLITE_FULL: { en: "the disk of the index database is full", ru: "диск базы указателя заполнен" },
};

/**
 * Turns an error of the SQLite engine (better-sqlite3's `SqliteError`, known by its
 * `SQLITE_*` code) into `index_failed` with a message that says what to do, so the engine's
 * own text never reaches a user or an agent, nor as an `internal` error. An `index_failed`
 * LoreError whose cause is a busy, damaged, read-only or full database gets that message
 * too. The SQLite code is kept in `data.sqlite`, the engine's error as `cause`.
 *
 * @param error - anything caught.
 * @returns the LoreError, or undefined when `error` is neither (keep it as it is).
 */
export function fromSqliteError(error: unknown): LoreError | undefined {
  if (isLoreError(error)) {
    if (error.code !== "index_failed") return undefined;
    const cause = sqliteCode(error.cause);
    return cause !== undefined && SQLITE_REASONS[cause.primary] !== undefined
      ? fromSqliteError(error.cause)
      : undefined;
  }
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  const reason = SQLITE_REASONS[code.primary] ?? {
    en: `the index database failed (${code.full})`,
    ru: `ошибка базы указателя (${code.full})`,
  };
  return new LoreError(
    "index_failed",
    { reason: reason.en, reason_ru: reason.ru },
    { cause: error, data: { sqlite: code.full } },
  );
}

/** A SQLite result code and its primary part (`SQLITE_BUSY_SNAPSHOT` → `SQLITE_BUSY`). */
function sqliteCode(error: unknown): { full: string; primary: string } | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return undefined;
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  return primary === undefined ? undefined : { full: code, primary };
}
