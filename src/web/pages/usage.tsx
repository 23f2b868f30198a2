/**
 * Usage: shown vs read per day for the repository and, picked from its entries, for one entry
 * (`GET …/knowledge/stats/daily?days=&id=`; Pro — a Community server's 402 message is shown).
 */
import { useState } from "preact/hooks";
import { type DailyUsage, getJson, repoPath } from "../api.js";
import { Loaded, useAsync } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { UsageChart } from "../components/usage-chart.js";
import { loadKnowledge } from "../data.js";
import { t } from "../i18n.js";

const DAY_CHOICES = [7, 30, 90] as const;

/** The usage page. */
export function UsagePage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  const [days, setDays] = useState(30);
  const [entry, setEntry] = useState("");
  const [repoUsage, reloadRepo] = useAsync(
    () => getJson<DailyUsage>(`${repoPath(owner, name)}/knowledge/stats/daily?days=${days}`),
    [owner, name, days],
  );
  const [list] = useAsync(() => loadKnowledge(owner, name), [owner, name]);
  const [entryUsage, reloadEntry] = useAsync(
    () =>
      entry === ""
        ? Promise.resolve(undefined)
        : getJson<DailyUsage>(
            `${repoPath(owner, name)}/knowledge/stats/daily?days=${days}&id=${encodeURIComponent(entry)}`,
          ),
    [owner, name, days, entry],
  );
  return (
    <RepoPage owner={owner} name={name} current="usage" title={t("usage")}>
      <div class="toolbar">
        <label for="usage-days">{t("days")}</label>
        <select
          id="usage-days"
          value={String(days)}
          onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}
        >
          {DAY_CHOICES.map((d) => (
            <option key={d} value={String(d)}>
              {d}
            </option>
          ))}
        </select>
      </div>
      <Loaded state={repoUsage} onRetry={reloadRepo}>
        {(usage) => <UsageChart usage={usage} title={t("usageOfRepo")} />}
      </Loaded>
      {list.status === "done" ? (
        <div class="toolbar">
          <label for="usage-entry">{t("entry")}</label>
          <select
            id="usage-entry"
            value={entry}
            onChange={(e) => setEntry((e.target as HTMLSelectElement).value)}
          >
            <option value="">—</option>
            {list.value.items
              .filter((i) => !i.draft)
              .map((i) => (
                <option key={i.id} value={i.id}>
                  {i.summary || i.path}
                </option>
              ))}
          </select>
        </div>
      ) : null}
      {entry === "" ? null : (
        <Loaded state={entryUsage} onRetry={reloadEntry}>
          {(usage) => (usage ? <UsageChart usage={usage} title={t("usageOfEntry")} /> : null)}
        </Loaded>
      )}
    </RepoPage>
  );
}
