import { nearestKey } from "../text/nearest-key.js";
import { type Diagnostic, type DiagnosticDetails, makeDiagnostic } from "./diagnostic.js";
import { type ContractClause, KNOWN_MECHANISMS } from "./entry.js";
import {
  controlHint,
  EXPECTED,
  findControlCharacter,
  type Hint,
  invalidField,
  isMapping,
  NO_HINT,
  type Report,
  show,
} from "./field-diagnostic.js";
import type { FrontmatterLocator } from "./frontmatter-locator.js";

/** The parameters each known mechanism takes (seed 004; the entry format "Known mechanisms"). */
export const MECHANISM_PARAMS: Readonly<Record<string, readonly string[]>> = {
  on_query: ["words"],
  on_tool: ["name"],
};

/** What {@link readContract} reports to. */
export interface ContractChecks {
  /** Line and column of the `contract` key. */
  position: DiagnosticDetails;
  locator: FrontmatterLocator;
  /** Reports a *wrong* problem. */
  fail: Report;
  /** Reports a note or a *not understood* problem. */
  report: Report;
  /** Called for each unknown param key of a known mechanism. */
  onUnknownKey: () => void;
  /**
   * The mechanisms this version knows. Default: {@link KNOWN_MECHANISMS}. A narrower set
   * reads a file as an older version would (used to test that an entry comes alive after
   * an upgrade, seed 004 "после обновления сервера она оживает сама").
   */
  mechanisms?: readonly string[];
}

/**
 * Checks the `contract` field (seed 004, "Поля заголовка"; the entry format, known
 * mechanisms): a list of `{mechanism, params}` clauses. `on_query` needs `params.words`
 * (a non-empty list of non-blank strings), `on_tool` needs `params.name` (a non-blank
 * string), neither holding a control character other than TAB and LF (see
 * `findControlCharacter`) — `invalid_mechanism_params`, with a hint for `- #word` items, which YAML reads as
 * comments. Other mechanisms are kept as written (`unknown_mechanism`); other params of a
 * known mechanism are kept too (`unknown_key`). A clause that is not a mapping, lacks a
 * mechanism, has params that are not a mapping or holds other keys is `invalid_field`.
 *
 * @param raw - the `contract` value; absent or null reads as an empty contract.
 * @param checks - where to report; see {@link ContractChecks}.
 * @returns the clauses and the unknown mechanisms (unique, in file order), or `undefined`
 *   when something is wrong (already reported).
 */
export function readContract(
  raw: unknown,
  { position, locator, fail, report, onUnknownKey, mechanisms = KNOWN_MECHANISMS }: ContractChecks,
): { clauses: ContractClause[]; unmet: string[] } | undefined {
  if (raw === undefined || raw === null) return { clauses: [], unmet: [] };
  if (!Array.isArray(raw)) {
    fail("invalid_field", invalidField("contract", position, EXPECTED.contract));
    return undefined;
  }
  let wrong = false;
  const wrongly: Report = (code, details) => {
    wrong = true;
    fail(code, details);
  };
  const clauses: ContractClause[] = [];
  const unmet: string[] = [];
  const emptyItems = {
    seen: 0,
    comments: undefined as { line: number; text: string }[] | undefined,
  };
  raw.forEach((item: unknown, index) => {
    const at = `contract[${index}]`;
    if (!isMapping(item)) {
      wrongly("invalid_field", invalidField(at, position, EXPECTED.clause));
      return;
    }
    for (const key of Object.keys(item)) {
      if (key !== "mechanism" && key !== "params") {
        wrongly("invalid_field", invalidField(`${at}.${show(key)}`, position, EXPECTED.clauseKey));
      }
    }
    const mechanism = item.mechanism;
    if (typeof mechanism !== "string" || mechanism.trim() === "") {
      wrongly("invalid_field", invalidField(`${at}.mechanism`, position, EXPECTED.mechanism));
      return;
    }
    const rawParams = Object.hasOwn(item, "params") ? item.params : undefined;
    let params: Record<string, unknown> = {};
    if (rawParams !== undefined && rawParams !== null) {
      if (!isMapping(rawParams)) {
        wrongly("invalid_field", invalidField(`${at}.params`, position, EXPECTED.params));
        return;
      }
      params = rawParams;
    }
    clauses.push({ mechanism, params });
    const known = MECHANISM_PARAMS[mechanism];
    if (!mechanisms.includes(mechanism) || known === undefined) {
      if (!unmet.includes(mechanism)) unmet.push(mechanism);
      report("unknown_mechanism", {
        ...position,
        at: `${at}.mechanism`,
        params: { mechanism: show(mechanism) },
      });
      return;
    }
    for (const key of Object.keys(params)) {
      if (known.includes(key)) continue;
      onUnknownKey();
      const nearest = nearestKey(key, known);
      report("unknown_key", {
        ...position,
        at: `${at}.params.${show(key)}`,
        params: nearest === undefined ? { key: show(key) } : { key: show(key), nearest },
      });
    }
    const problem =
      mechanism === "on_query" ? wordsProblem(params.words) : nameProblem(params.name);
    if (problem === undefined) return;
    let where = position;
    if (problem.empty) {
      emptyItems.comments ??= locator.commentItems();
      const comment = emptyItems.comments[emptyItems.seen++];
      if (comment !== undefined) where = { line: comment.line, column: 1 };
    }
    wrongly("invalid_mechanism_params", {
      ...where,
      at: `${at}.params.${problem.at}`,
      params: {
        mechanism,
        ...(mechanism === "on_query" ? EXPECTED.words : EXPECTED.name),
        ...problem.hint,
      },
    });
  });
  return wrong ? undefined : { clauses, unmet };
}

interface ParamProblem {
  /** Path under `params`, e.g. `words[0]`. */
  at: string;
  hint: Hint;
  /** An empty list item: most often `- #word`, which YAML reads as a comment. */
  empty?: boolean;
}

function wordsProblem(words: unknown): ParamProblem | undefined {
  if (!Array.isArray(words)) return { at: "words", hint: NO_HINT };
  if (words.length === 0) {
    return { at: "words", hint: { hint: " — the list is empty", hint_ru: " — список пуст" } };
  }
  for (const [index, word] of words.entries()) {
    const n = index + 1;
    const at = `words[${index}]`;
    if (typeof word === "string") {
      if (word.trim() === "") {
        return { at, hint: { hint: ` — item ${n} is blank`, hint_ru: ` — элемент ${n} пуст` } };
      }
      const control = findControlCharacter(word);
      if (control === undefined) continue;
      return { at, hint: controlHint(control, `item ${n}`, `элемент ${n}`) };
    }
    if (word === null) {
      return {
        at,
        empty: true,
        hint: {
          hint: ` — item ${n} is empty: a list item starting with \`#\` is a YAML comment; quote it: \`- "#hooks"\``,
          hint_ru: ` — элемент ${n} пуст: элемент списка, начинающийся с \`#\`, YAML читает как комментарий; возьмите его в кавычки: \`- "#hooks"\``,
        },
      };
    }
    return { at, hint: scalarHint(word, `item ${n}`, `элемент ${n}`) };
  }
  return undefined;
}

function nameProblem(name: unknown): ParamProblem | undefined {
  if (typeof name === "string" && name.trim() !== "") {
    const control = findControlCharacter(name);
    return control === undefined
      ? undefined
      : { at: "name", hint: controlHint(control, "the name", "имя") };
  }
  if (typeof name === "string" || name === undefined || name === null) {
    return { at: "name", hint: NO_HINT };
  }
  return { at: "name", hint: scalarHint(name, "the name", "имя") };
}

function scalarHint(value: unknown, en: string, ru: string): Hint {
  if (typeof value === "number" || typeof value === "boolean") {
    const quoted = `"${String(value)}"`;
    return {
      hint: ` — ${en} is read as a ${typeof value}; quote it: ${quoted}`,
      hint_ru: ` — ${ru} прочитан как ${typeof value === "number" ? "число" : "логическое значение"}; возьмите его в кавычки: ${quoted}`,
    };
  }
  const list = Array.isArray(value);
  return {
    hint: ` — ${en} is a ${list ? "list" : "mapping"}`,
    hint_ru: ` — ${ru}: ${list ? "список" : "набор ключей"}`,
  };
}

/** What {@link evaluateContract} finds. */
export interface ContractEvaluation {
  /** Reachable under `mechanisms`: a non-empty contract, every mechanism known, no unknown key. */
  reachable: boolean;
  /** Mechanisms of the contract `mechanisms` lacks (unique, in file order). */
  unmet: string[];
  /** True when a clause of a now-known mechanism has wrong params (the file is then *wrong*). */
  wrong: boolean;
  /** The contract's diagnostics under `mechanisms` (without line numbers). */
  diagnostics: Diagnostic[];
}

/**
 * Re-reads a stored contract (as written) against a mechanism set, so that reachability
 * follows the running version without the file being read again (seed 004, "Строго на
 * запись, терпимо на чтение": «после обновления сервера она оживает сама, без пересборки
 * указателя»). Pure.
 *
 * @param contract - the clauses as stored.
 * @param hasUnknownKey - whether the entry has a top-level key this version does not know.
 * @param mechanisms - the mechanisms of the running version.
 * @param path - copied into the diagnostics.
 */
export function evaluateContract(
  contract: readonly ContractClause[],
  hasUnknownKey: boolean,
  mechanisms: readonly string[],
  path?: string,
): ContractEvaluation {
  const diagnostics: Diagnostic[] = [];
  let wrong = false;
  let unknownParam = false;
  const add = (code: Parameters<Report>[0], details: DiagnosticDetails) =>
    diagnostics.push(makeDiagnostic(code, path === undefined ? details : { ...details, path }));
  const read = readContract(contract, {
    position: {},
    locator: { lineOfKey: () => undefined, commentItems: () => [] },
    fail: (code, details) => {
      wrong = true;
      add(code, details);
    },
    report: add,
    onUnknownKey: () => {
      unknownParam = true;
    },
    mechanisms,
  });
  const unmet = read?.unmet ?? [];
  return {
    reachable:
      read !== undefined &&
      contract.length > 0 &&
      unmet.length === 0 &&
      !hasUnknownKey &&
      !unknownParam,
    unmet,
    wrong: wrong || read === undefined,
    diagnostics,
  };
}
