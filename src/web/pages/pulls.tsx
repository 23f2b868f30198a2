/**
 * Merge requests: the list (by state) with the machine mark of those delivery opened, and one
 * request with its diff stat (`GET …/pulls/{n}`), approvals and merge commit. The diff link
 * is the request's page, whose stat is the server's `git diff --numstat target...source`.
 */
import { useState } from "preact/hooks";
import { getJson, type Pull, repoPath } from "../api.js";
import { Loaded, Time, useAsync } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { type StringKey, t } from "../i18n.js";
import { repoHref } from "../router.js";

const STATES = ["all", "open", "merged", "closed"] as const;
const STATE_KEY: Record<string, StringKey> = {
  all: "stateAll",
  open: "stateOpen",
  closed: "stateClosed",
  merged: "stateMerged",
};

function OriginMark(props: { pull: Pull }) {
  return props.pull.origin === "machine" ? (
    <span class="badge machine" title={t("openedByDelivery")}>
      {t("machine")}
    </span>
  ) : (
    <span class="badge">{t("human")}</span>
  );
}

/** The list of merge requests. */
export function PullsPage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  const [state, setState] = useState<string>("all");
  const [load, reload] = useAsync(
    () => getJson<Pull[]>(`${repoPath(owner, name)}/pulls?state=${state}`),
    [owner, name, state],
  );
  return (
    <RepoPage owner={owner} name={name} current="pulls" title={t("pulls")}>
      <div class="toolbar">
        <label for="pull-state">{t("state")}</label>
        <select
          id="pull-state"
          value={state}
          onChange={(e) => setState((e.target as HTMLSelectElement).value)}
        >
          {STATES.map((s) => (
            <option key={s} value={s}>
              {t(STATE_KEY[s] ?? "stateAll")}
            </option>
          ))}
        </select>
      </div>
      <Loaded state={load} onRetry={reload}>
        {(pulls) =>
          pulls.length === 0 ? (
            <p>{t("noPulls")}</p>
          ) : (
            <table class="pulls">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t("summary")}</th>
                  <th scope="col">{t("state")}</th>
                  <th scope="col">{t("origin")}</th>
                  <th scope="col">{t("branch")}</th>
                  <th scope="col">{t("author")}</th>
                  <th scope="col">{t("diff")}</th>
                </tr>
              </thead>
              <tbody>
                {pulls.map((p) => (
                  <tr key={p.number} data-pull={p.number}>
                    <td>{p.number}</td>
                    <td>
                      <a href={repoHref(owner, name, "pulls", p.number)}>{p.title}</a>
                    </td>
                    <td>{t(STATE_KEY[p.state] ?? "stateAll")}</td>
                    <td>
                      <OriginMark pull={p} />
                    </td>
                    <td>
                      <code>{p.source}</code> → <code>{p.target}</code>
                    </td>
                    <td>{p.author}</td>
                    <td>
                      <a href={repoHref(owner, name, "pulls", p.number)}>
                        {t("diff")} <span class="visually-hidden">#{p.number}</span>
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </RepoPage>
  );
}

/** One merge request with its diff stat. */
export function PullPage(props: { owner: string; name: string; number: number }) {
  const { owner, name, number } = props;
  const [load, reload] = useAsync(
    () => getJson<Pull>(`${repoPath(owner, name)}/pulls/${number}`),
    [owner, name, number],
  );
  return (
    <RepoPage owner={owner} name={name} current="pulls" title={t("pull", { n: number })}>
      <Loaded state={load} onRetry={reload}>
        {(p) => (
          <article>
            <h2>
              {p.title} <OriginMark pull={p} />
            </h2>
            <dl class="fields">
              <dt>{t("state")}</dt>
              <dd>{t(STATE_KEY[p.state] ?? "stateAll")}</dd>
              <dt>{t("branch")}</dt>
              <dd>
                <code>{p.source}</code> → <code>{p.target}</code>
              </dd>
              <dt>{t("author")}</dt>
              <dd>{p.author}</dd>
              <dt>{t("created")}</dt>
              <dd>
                <Time at={p.created_at} />
              </dd>
              <dt>{t("diff")}</dt>
              <dd data-diff-stat>
                {p.diff_stat
                  ? t("diffStat", {
                      files: p.diff_stat.files,
                      ins: p.diff_stat.insertions,
                      del: p.diff_stat.deletions,
                    })
                  : t("diffGone")}
              </dd>
              <dt>{t("approvals")}</dt>
              <dd>
                {p.approvals.length === 0 ? t("none") : p.approvals.map((a) => a.user).join(", ")}
              </dd>
              {p.merge_commit ? (
                <>
                  <dt>{t("mergeCommit")}</dt>
                  <dd>
                    <code>{p.merge_commit}</code>
                  </dd>
                </>
              ) : null}
            </dl>
            {p.body ? <pre class="pull-body">{p.body}</pre> : null}
          </article>
        )}
      </Loaded>
    </RepoPage>
  );
}
