/**
 * An entry's contract (its clauses: mechanism and parameters such as words or tools), its
 * reachability and the diagnostics of its last parse, as text.
 */
import type { Clause, KnowledgeItem } from "../api.js";
import { lang, t } from "../i18n.js";

/** The contract's clauses, one per line: `on_query — words: a, b`. */
export function Contract(props: { clauses: Clause[] }) {
  if (props.clauses.length === 0) return <span class="muted">{t("none")}</span>;
  return (
    <ul class="plain">
      {props.clauses.map((clause, i) => (
        <li key={i}>
          <code>{clause.mechanism}</code>
          {Object.entries(clause.params ?? {}).map(([key, value]) => (
            <span key={key}>
              {" "}
              — {key === "words" ? t("words") : key === "tools" ? t("tools") : key}:{" "}
              {Array.isArray(value) ? value.map(String).join(", ") : JSON.stringify(value)}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** Reachable or not, with the unmet mechanisms. */
export function Reach(props: { item: KnowledgeItem }) {
  const { item } = props;
  if (item.reachable) return <span class="ok">{t("reachable")}</span>;
  return (
    <span class="warn">
      {t("unreachable")}
      {item.unmet_mechanisms.length > 0
        ? ` (${t("needsMechanisms", { list: item.unmet_mechanisms.join(", ") })})`
        : ""}
    </span>
  );
}

/** The diagnostics of the last parse; none listed → "none". */
export function Diagnostics(props: { item: KnowledgeItem }) {
  const list = props.item.diagnostics ?? [];
  if (list.length === 0) return <span class="muted">{t("noDiagnostics")}</span>;
  return (
    <ul class="plain">
      {list.map((d, i) => (
        <li key={i} class={d.severity === "error" ? "bad" : d.severity === "warning" ? "warn" : ""}>
          <code>{d.code}</code>
          {d.line === undefined ? "" : `:${d.line}`}{" "}
          {lang.get() === "ru" ? d.message_ru : d.message}
        </li>
      ))}
    </ul>
  );
}
