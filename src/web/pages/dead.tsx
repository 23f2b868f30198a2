/**
 * Dead memory (`GET …/knowledge/stats/dead?min_shown=&min_age_days=`, Pro): each row's
 * ailment, counts, age; the thresholds applied; sortable by every column (the header buttons,
 * `aria-sort`) and filterable by text and ailment; each row links to its entry. The thresholds
 * live in the address (`#/repos/o/n/dead?min_shown=5&min_age_days=14`), so a view can be shared.
 */
import { useMemo, useState } from "preact/hooks";
import { getJson, repoPath, type StatsRow } from "../api.js";
import { Loaded, Time, useAsync } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { type StringKey, t } from "../i18n.js";
import { repoHref } from "../router.js";

/** `GET …/stats/dead`. */
interface DeadReport {
  items: StatsRow[];
  partial?: string;
  min_shown: number;
  min_age_days: number;
}

type Column = "path" | "ailment" | "shown" | "read" | "age_days" | "first_seen_at";
const COLUMNS: [Column, StringKey][] = [
  ["path", "entry"],
  ["ailment", "ailment"],
  ["shown", "shown"],
  ["read", "read"],
  ["age_days", "age"],
  ["first_seen_at", "firstSeen"],
];
const AILMENTS = ["shown_not_read", "unreachable", "never_shown"] as const;

function compare(a: StatsRow, b: StatsRow, column: Column): number {
  const x = a[column];
  const y = b[column];
  if (typeof x === "number" && typeof y === "number") return x - y;
  return String(x ?? "").localeCompare(String(y ?? ""));
}

function whole(text: string | null, fallback: number): number {
  return text !== null && /^\d+$/.test(text) ? Number(text) : fallback;
}

/** The dead-memory page. */
export function DeadPage(props: { owner: string; name: string; query: URLSearchParams }) {
  const { owner, name } = props;
  const thresholds = {
    minShown: whole(props.query.get("min_shown"), 10),
    minAgeDays: whole(props.query.get("min_age_days"), 30),
  };
  const [draft, setDraft] = useState({
    minShown: String(thresholds.minShown),
    minAgeDays: String(thresholds.minAgeDays),
  });
  const [state, reload] = useAsync(
    () =>
      getJson<DeadReport>(
        `${repoPath(owner, name)}/knowledge/stats/dead?min_shown=${thresholds.minShown}&min_age_days=${thresholds.minAgeDays}`,
      ),
    [owner, name, thresholds.minShown, thresholds.minAgeDays],
  );
  const [sort, setSort] = useState<{ column: Column; up: boolean }>({ column: "path", up: true });
  const [text, setText] = useState("");
  const [ailment, setAilment] = useState("");
  const items = state.status === "done" ? state.value.items : undefined;
  const rows = useMemo(() => {
    if (!items) return [];
    const needle = text.trim().toLowerCase();
    const kept = items.filter(
      (r) =>
        (ailment === "" || r.ailment === ailment) &&
        (needle === "" ||
          r.path.toLowerCase().includes(needle) ||
          r.summary.toLowerCase().includes(needle) ||
          r.id.includes(needle)),
    );
    kept.sort((a, b) => (sort.up ? 1 : -1) * compare(a, b, sort.column));
    return kept;
  }, [items, text, ailment, sort]);
  return (
    <RepoPage owner={owner} name={name} current="dead" title={t("dead")}>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          const query = new URLSearchParams({
            min_shown: draft.minShown.trim(),
            min_age_days: draft.minAgeDays.trim(),
          });
          location.hash = `${repoHref(owner, name, "dead")}?${query}`;
        }}
      >
        <label for="min-shown">{t("minShown")}</label>
        <input
          id="min-shown"
          type="number"
          min="1"
          max="1000000"
          value={draft.minShown}
          onInput={(e) => setDraft({ ...draft, minShown: (e.target as HTMLInputElement).value })}
        />
        <label for="min-age">{t("minAgeDays")}</label>
        <input
          id="min-age"
          type="number"
          min="0"
          max="36500"
          value={draft.minAgeDays}
          onInput={(e) => setDraft({ ...draft, minAgeDays: (e.target as HTMLInputElement).value })}
        />
        <button type="submit">{t("apply")}</button>
      </form>
      <Loaded state={state} onRetry={reload}>
        {(report) => (
          <>
            <p class="muted" data-thresholds>
              {t("thresholds", { s: report.min_shown, d: report.min_age_days })}
            </p>
            {report.partial ? <p class="notice">{t("partial")}</p> : null}
            <div class="toolbar">
              <label for="dead-filter">{t("filter")}</label>
              <input
                id="dead-filter"
                type="search"
                placeholder={t("filterPlaceholder")}
                value={text}
                onInput={(e) => setText((e.target as HTMLInputElement).value)}
              />
              <label for="dead-ailment">{t("ailment")}</label>
              <select
                id="dead-ailment"
                value={ailment}
                onChange={(e) => setAilment((e.target as HTMLSelectElement).value)}
              >
                <option value="">{t("allAilments")}</option>
                {AILMENTS.map((a) => (
                  <option key={a} value={a}>
                    {t(`ailment_${a}`)}
                  </option>
                ))}
              </select>
              <span class="muted" aria-live="polite" data-rows={rows.length}>
                {t("rows", { n: rows.length })}
              </span>
            </div>
            {report.items.length === 0 ? (
              <p>{t("noDead")}</p>
            ) : (
              <div class="scroll">
                <table class="dead">
                  <thead>
                    <tr>
                      {COLUMNS.map(([column, key]) => {
                        const active = sort.column === column;
                        return (
                          <th
                            key={column}
                            scope="col"
                            aria-sort={active ? (sort.up ? "ascending" : "descending") : "none"}
                          >
                            <button
                              type="button"
                              class="sort"
                              data-sort={column}
                              title={t("sortBy", { col: t(key) })}
                              onClick={() => setSort({ column, up: active ? !sort.up : true })}
                            >
                              {t(key)}
                              <span aria-hidden="true">
                                {active ? (sort.up ? " ▲" : " ▼") : ""}
                              </span>
                            </button>
                          </th>
                        );
                      })}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.id} data-id={r.id}>
                        <td>
                          <a href={repoHref(owner, name, "entries", r.id)}>{r.summary || r.path}</a>
                          <br />
                          <code class="small">{r.path}</code>
                        </td>
                        <td data-col="ailment">
                          {r.ailment ? t(`ailment_${r.ailment}`) : ""}
                          {r.unmet_mechanisms && r.unmet_mechanisms.length > 0
                            ? ` (${r.unmet_mechanisms.join(", ")})`
                            : ""}
                        </td>
                        <td class="num" data-col="shown">
                          {r.shown}
                        </td>
                        <td class="num" data-col="read">
                          {r.read}
                        </td>
                        <td class="num" data-col="age_days">
                          {r.age_days ?? ""}
                        </td>
                        <td>
                          <Time at={r.first_seen_at} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loaded>
    </RepoPage>
  );
}
