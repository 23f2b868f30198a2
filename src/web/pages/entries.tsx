/**
 * A repository's entries: path and summary, origin, reachability, contract (words, tools),
 * the last parse's diagnostics, shown/read counts, and the links between entries as a graph.
 * Drafts are listed too, marked unverified.
 */
import { useState } from "preact/hooks";
import { Loaded, useAsync } from "../components/async.js";
import { Contract, Diagnostics, Reach } from "../components/contract.js";
import { LinksGraph } from "../components/links-graph.js";
import { RepoPage } from "../components/repo-nav.js";
import { loadCounts, loadKnowledge } from "../data.js";
import { t } from "../i18n.js";
import { repoHref } from "../router.js";

/** The entries page. */
export function EntriesPage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  const [state, reload] = useAsync(async () => {
    const [list, counts] = await Promise.all([loadKnowledge(owner, name), loadCounts(owner, name)]);
    return { list, counts };
  }, [owner, name]);
  const [filter, setFilter] = useState("");
  return (
    <RepoPage owner={owner} name={name} current="entries" title={t("entries")}>
      <Loaded state={state} onRetry={reload}>
        {({ list, counts }) => {
          const needle = filter.trim().toLowerCase();
          const items = list.items.filter(
            (i) =>
              needle === "" ||
              i.path.toLowerCase().includes(needle) ||
              i.summary.toLowerCase().includes(needle) ||
              i.id.includes(needle),
          );
          return (
            <>
              {list.partial ? <p class="notice">{t("partial")}</p> : null}
              <p class="muted">{counts.of === "team" ? t("countsOfTeam") : t("countsOfMe")}</p>
              <div class="toolbar">
                <label for="entries-filter">{t("filter")}</label>
                <input
                  id="entries-filter"
                  type="search"
                  placeholder={t("filterPlaceholder")}
                  value={filter}
                  onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
                />
                <span class="muted" aria-live="polite">
                  {t("rows", { n: items.length })}
                </span>
              </div>
              <div class="scroll">
                <table class="entries">
                  <thead>
                    <tr>
                      <th scope="col">{t("entry")}</th>
                      <th scope="col">{t("origin")}</th>
                      <th scope="col">{t("reachable")}</th>
                      <th scope="col">{t("contract")}</th>
                      <th scope="col">{t("diagnostics")}</th>
                      <th scope="col">{t("shown")}</th>
                      <th scope="col">{t("read")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((item) => {
                      const row = counts.byId.get(item.id);
                      return (
                        <tr key={`${item.id}:${item.branch ?? ""}`} data-id={item.id}>
                          <td>
                            <a href={repoHref(owner, name, "entries", item.id)}>
                              {item.summary || item.path}
                            </a>
                            <br />
                            <code class="small">{item.path}</code>
                            {item.draft ? (
                              <span class="badge draft">
                                {t("draft")} · {t("unverified")} · {item.branch}
                              </span>
                            ) : null}
                          </td>
                          <td>{item.origin}</td>
                          <td>
                            <Reach item={item} />
                          </td>
                          <td>
                            <Contract clauses={item.contract} />
                          </td>
                          <td>
                            <Diagnostics item={item} />
                          </td>
                          <td class="num" data-col="shown">
                            {row?.shown ?? 0}
                          </td>
                          <td class="num" data-col="read">
                            {row?.read ?? 0}
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
              <h2>{t("linksGraph")}</h2>
              <LinksGraph owner={owner} name={name} items={list.items} />
            </>
          );
        }}
      </Loaded>
    </RepoPage>
  );
}
