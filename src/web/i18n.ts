/**
 * The web view's strings: one dictionary per language (English, Russian), the same keys in
 * both (the type of `RU` is the type of `EN`, so a missing key is a type error). The language
 * defaults to `navigator.language` and is kept in localStorage once the user switches.
 */
import { signal } from "./signal.js";

/** The English dictionary; `{name}` marks a parameter. */
export const EN = {
  appName: "Lore",
  skipToContent: "Skip to content",
  mainNav: "Main",
  language: "Language",
  signIn: "Sign in",
  signInTitle: "Sign in to Lore",
  signInHelp:
    "Paste a Lore token (lore token create …). It is exchanged for a session cookie and not kept in the page.",
  token: "Token",
  signOut: "Sign out",
  signedInAs: "Signed in as {name}",
  siteAdmin: "site admin",
  loading: "Loading…",
  error: "Error",
  retry: "Retry",
  notFound: "Nothing here",
  notFoundText: "No such page.",
  repositories: "Repositories",
  noRepos: "You cannot read any repository yet.",
  repository: "Repository",
  public: "public",
  private: "private",
  permission: "Your access",
  defaultBranch: "Default branch",
  entries: "Entries",
  drafts: "Drafts",
  pulls: "Merge requests",
  usage: "Usage",
  dead: "Dead memory",
  receipts: "Receipts",
  myReceipts: "My receipts",
  entry: "Entry",
  path: "Path",
  summary: "Summary",
  origin: "Origin",
  reachable: "Reachable",
  unreachable: "Unreachable",
  contract: "Contract",
  words: "words",
  tools: "tools",
  diagnostics: "Diagnostics of the last parse",
  noDiagnostics: "none",
  needsMechanisms: "needs {list}",
  shown: "Shown",
  read: "Read",
  countsOfTeam: "Shown and read: the team's counts.",
  countsOfMe: "Shown and read: your own counts (the team's need the Pro edition).",
  links: "Links",
  linksGraph: "Links between entries",
  linksGraphLabel: "A graph of {nodes} entries and {edges} links",
  noLinks: "No entry links to another.",
  linksTo: "links to",
  partial: "The list is cut at 1,000 records.",
  filter: "Filter",
  filterPlaceholder: "path, summary or id",
  body: "Body",
  draft: "draft",
  unverified: "unverified",
  branch: "Branch",
  author: "Author",
  created: "Created",
  size: "Size",
  bytes: "{n} bytes",
  deliver: "Deliver",
  deliverMode: "Delivery",
  modeSeparate: "a separate branch with its own merge request",
  modeSame: "into the branch itself",
  label: "Label",
  discard: "Discard",
  confirmDiscard: "Discard the draft {id}?",
  delivered: "delivered",
  deliveredInto: "Delivered into {branch} at {commit}",
  deliveryDone: "Delivered {n} draft(s): {commits} commit(s) on {branch}.",
  deliveryNothing: "Nothing to deliver on {branch}.",
  discarded: "Draft discarded.",
  noDrafts: "No drafts.",
  loadMore: "Load more",
  state: "State",
  stateAll: "all",
  stateOpen: "open",
  stateClosed: "closed",
  stateMerged: "merged",
  machine: "machine",
  human: "human",
  agent: "agent",
  openedByDelivery: "opened by delivery",
  noPulls: "No merge requests.",
  pull: "Merge request #{n}",
  diff: "Diff",
  diffStat: "{files} file(s) changed, +{ins} −{del}",
  diffGone: "a branch is gone: no diff",
  approvals: "Approvals",
  none: "none",
  mergeCommit: "Merge commit",
  days: "Days",
  usageOfRepo: "Shown and read per day: the repository",
  usageOfEntry: "Shown and read per day: this entry",
  chartLabel: "Chart of shown and read per day over {days} days",
  tableOfChart: "The chart's numbers",
  day: "Day",
  total: "Total",
  ailment: "Ailment",
  ailment_shown_not_read: "shown, never read",
  ailment_unreachable: "unreachable",
  ailment_never_shown: "never shown",
  allAilments: "every ailment",
  minShown: "Shown at least (min_shown)",
  minAgeDays: "Days in the index at least (min_age_days)",
  apply: "Apply",
  thresholds: "Thresholds applied: min_shown {s}, min_age_days {d}",
  age: "Age (days)",
  firstSeen: "First seen",
  sortBy: "Sort by {col}",
  rows: "{n} row(s)",
  noDead: "No dead memory.",
  receiptsRepo: "Receipts of the repository",
  receiptsMine: "What surfaced for me",
  receiptsMissing: "This server keeps no receipts (the endpoint is absent).",
  noReceipts: "No receipts.",
  when: "When",
  user: "User",
  client: "Client",
  session: "Session",
  query: "Query",
  hits: "Surfaced",
  why: "Why",
  proNeeded: "Needs a paid edition",
  never: "never",
  yes: "yes",
  no: "no",
} as const;

/** The keys of the dictionaries. */
export type StringKey = keyof typeof EN;

/** The Russian dictionary. */
export const RU: Record<StringKey, string> = {
  appName: "Lore",
  skipToContent: "К содержимому",
  mainNav: "Главное",
  language: "Язык",
  signIn: "Войти",
  signInTitle: "Вход в Lore",
  signInHelp:
    "Вставьте токен Lore (lore token create …). Он меняется на cookie сессии и в странице не хранится.",
  token: "Токен",
  signOut: "Выйти",
  signedInAs: "Вы вошли как {name}",
  siteAdmin: "администратор",
  loading: "Загрузка…",
  error: "Ошибка",
  retry: "Повторить",
  notFound: "Здесь ничего нет",
  notFoundText: "Такой страницы нет.",
  repositories: "Репозитории",
  noRepos: "Вам пока не доступен ни один репозиторий.",
  repository: "Репозиторий",
  public: "открытый",
  private: "закрытый",
  permission: "Ваш доступ",
  defaultBranch: "Основная ветка",
  entries: "Записи",
  drafts: "Черновики",
  pulls: "Запросы на слияние",
  usage: "Использование",
  dead: "Мёртвая память",
  receipts: "Квитанции",
  myReceipts: "Мои квитанции",
  entry: "Запись",
  path: "Путь",
  summary: "Кратко",
  origin: "Происхождение",
  reachable: "Достижима",
  unreachable: "Недостижима",
  contract: "Контракт",
  words: "слова",
  tools: "инструменты",
  diagnostics: "Диагностика последнего разбора",
  noDiagnostics: "нет",
  needsMechanisms: "нужны {list}",
  shown: "Показана",
  read: "Прочитана",
  countsOfTeam: "Показы и чтения: счётчики команды.",
  countsOfMe: "Показы и чтения: только ваши (счётчики команды — в редакции Pro).",
  links: "Ссылки",
  linksGraph: "Ссылки между записями",
  linksGraphLabel: "Граф: записей {nodes}, ссылок {edges}",
  noLinks: "Ни одна запись не ссылается на другую.",
  linksTo: "ссылается на",
  partial: "Список обрезан на 1 000 записях.",
  filter: "Фильтр",
  filterPlaceholder: "путь, описание или id",
  body: "Текст",
  draft: "черновик",
  unverified: "не проверено",
  branch: "Ветка",
  author: "Автор",
  created: "Создан",
  size: "Размер",
  bytes: "{n} байт",
  deliver: "Доставить",
  deliverMode: "Доставка",
  modeSeparate: "в отдельную ветку со своим запросом на слияние",
  modeSame: "в саму ветку",
  label: "Метка",
  discard: "Удалить",
  confirmDiscard: "Удалить черновик {id}?",
  delivered: "доставлен",
  deliveredInto: "Доставлен в {branch}, коммит {commit}",
  deliveryDone: "Доставлено черновиков: {n}; коммитов: {commits}; ветка {branch}.",
  deliveryNothing: "В ветке {branch} нечего доставлять.",
  discarded: "Черновик удалён.",
  noDrafts: "Черновиков нет.",
  loadMore: "Ещё",
  state: "Состояние",
  stateAll: "все",
  stateOpen: "открыт",
  stateClosed: "закрыт",
  stateMerged: "слит",
  machine: "машина",
  human: "человек",
  agent: "агент",
  openedByDelivery: "открыт доставкой",
  noPulls: "Запросов на слияние нет.",
  pull: "Запрос на слияние №{n}",
  diff: "Изменения",
  diffStat: "изменено файлов: {files}, +{ins} −{del}",
  diffGone: "ветки нет: изменений не показать",
  approvals: "Одобрения",
  none: "нет",
  mergeCommit: "Коммит слияния",
  days: "Дней",
  usageOfRepo: "Показы и чтения по дням: репозиторий",
  usageOfEntry: "Показы и чтения по дням: эта запись",
  chartLabel: "График показов и чтений по дням за {days} дн.",
  tableOfChart: "Числа графика",
  day: "День",
  total: "Всего",
  ailment: "Недуг",
  ailment_shown_not_read: "показана, не прочитана",
  ailment_unreachable: "недостижима",
  ailment_never_shown: "ни разу не показана",
  allAilments: "все недуги",
  minShown: "Показана не меньше (min_shown)",
  minAgeDays: "Дней в индексе не меньше (min_age_days)",
  apply: "Применить",
  thresholds: "Пороги: min_shown {s}, min_age_days {d}",
  age: "Возраст (дней)",
  firstSeen: "Впервые",
  sortBy: "Сортировать по «{col}»",
  rows: "Строк: {n}",
  noDead: "Мёртвой памяти нет.",
  receiptsRepo: "Квитанции репозитория",
  receiptsMine: "Что всплывало мне",
  receiptsMissing: "Этот сервер не ведёт квитанций (адреса нет).",
  noReceipts: "Квитанций нет.",
  when: "Когда",
  user: "Пользователь",
  client: "Клиент",
  session: "Сессия",
  query: "Запрос",
  hits: "Всплыло",
  why: "Почему",
  proNeeded: "Нужна платная редакция",
  never: "никогда",
  yes: "да",
  no: "нет",
};

/** A language of the web view. */
export type Lang = "en" | "ru";

const STORE_KEY = "lore.lang";

function initialLang(): Lang {
  try {
    const kept = localStorage.getItem(STORE_KEY);
    if (kept === "en" || kept === "ru") return kept;
  } catch {
    // Storage can be off (privacy mode); the browser's language still decides.
  }
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

/** The current language; pages re-render when it changes. */
export const lang = signal<Lang>(initialLang());

/**
 * Switches the language, remembers it and sets `<html lang>`.
 *
 * @param next - `en` or `ru`.
 */
export function setLang(next: Lang): void {
  lang.set(next);
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORE_KEY, next);
  } catch {
    // Not remembered: the switch still holds for this page.
  }
}

/**
 * The string of `key` in the current language with `{param}`s filled.
 *
 * @param key - a dictionary key.
 * @param params - values of the `{name}` markers.
 */
export function t(key: StringKey, params: Record<string, string | number> = {}): string {
  const dict: Record<StringKey, string> = lang.get() === "ru" ? RU : EN;
  return dict[key].replace(/\{(\w+)\}/g, (all, name: string) =>
    params[name] === undefined ? all : String(params[name]),
  );
}
