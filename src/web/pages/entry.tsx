/**
 * One entry: its fields, contract, reachability, links both ways, counts, its usage chart,
 * and its body rendered safely (see markdown.ts). A file's body is read from the default
 * branch (`GET …/raw/{path}`); a draft's from its text (`GET …/knowledge/drafts`).
 */
import {
  type DailyUsage,
  type Draft,
  getJson,
  getText,
  type KnowledgeItem,
  repoPath,
} from "../api.js";
import { ErrorBox, Loaded, useAsync } from "../components/async.js";
import { Contract, Diagnostics, Reach } from "../components/contract.js";
import { RepoPage } from "../components/repo-nav.js";
import { UsageChart } from "../components/usage-chart.js";
import { loadCounts, loadKnowledge } from "../data.js";
import { t } from "../i18n.js";
import { entryBody, renderMarkdown } from "../markdown.js";
import { repoHref } from "../router.js";

async function loadDraftText(owner: string, name: string, item: KnowledgeItem): Promise<string> {
  let after: string | null = null;
  do {
    const query = new URLSearchParams({ per_page: "100", branch: item.branch ?? "" });
    if (after) query.set("after", after);
    const page: { items: Draft[]; next_cursor: string | null } = await getJson(
      `${repoPath(owner, name)}/knowledge/drafts?${query}`,
    );
    const found = page.items.find((d) => d.id === item.id);
    if (found) return found.text;
    after = page.next_cursor;
  } while (after);
  return "";
}

/** The entry page. */
export function EntryPage(props: { owner: string; name: string; id: string }) {
  const { owner, name, id } = props;
  const [state, reload] = useAsync(async () => {
    const [list, counts] = await Promise.all([loadKnowledge(owner, name), loadCounts(owner, name)]);
    const item = list.items.find((i) => i.id === id);
    if (!item) return { item: undefined, list, counts, body: "" };
    const path = item.path.split("/").map(encodeURIComponent).join("/");
    const file = item.draft
      ? await loadDraftText(owner, name, item)
      : await getText(`${repoPath(owner, name)}/raw/${path}`);
    return { item, list, counts, body: entryBody(file) };
  }, [owner, name, id]);
  const [usage] = useAsync(
    () =>
      getJson<DailyUsage>(
        `${repoPath(owner, name)}/knowledge/stats/daily?days=30&id=${encodeURIComponent(id)}`,
      ),
    [owner, name, id],
  );
  return (
    <RepoPage owner={owner} name={name} current="" title={t("entry")}>
      <Loaded state={state} onRetry={reload}>
        {({ item, list, counts, body }) => {
          if (!item) return <p>{t("notFoundText")}</p>;
          const row = counts.byId.get(item.id);
          const byId = new Map(list.items.map((i) => [i.id, i]));
          const incoming = list.items.filter((i) => i.links.includes(item.id));
          const linkTo = (target: string) => {
            const to = byId.get(target);
            return (
              <li key={target}>
                <a href={repoHref(owner, name, "entries", target)}>
                  {to ? to.summary || to.path : target}
                </a>
              </li>
            );
          };
          return (
            <article>
              <h2>{item.summary || item.path}</h2>
              {item.draft ? (
                <p class="badge draft">
                  {t("draft")} · {t("unverified")} · {item.branch}
                </p>
              ) : null}
              <dl class="fields">
                <dt>id</dt>
                <dd>
                  <code>{item.id}</code>
                </dd>
                <dt>{t("path")}</dt>
                <dd>
                  <code>{item.path}</code>
                </dd>
                <dt>{t("origin")}</dt>
                <dd>{item.origin}</dd>
                <dt>{t("reachable")}</dt>
                <dd>
                  <Reach item={item} />
                </dd>
                <dt>{t("contract")}</dt>
                <dd>
                  <Contract clauses={item.contract} />
                </dd>
                <dt>{t("diagnostics")}</dt>
                <dd>
                  <Diagnostics item={item} />
                </dd>
                <dt>{t("shown")}</dt>
                <dd data-col="shown">{row?.shown ?? 0}</dd>
                <dt>{t("read")}</dt>
                <dd data-col="read">{row?.read ?? 0}</dd>
                <dt>{t("links")}</dt>
                <dd>
                  {item.links.length === 0 ? (
                    t("none")
                  ) : (
                    <ul class="plain">{item.links.map(linkTo)}</ul>
                  )}
                </dd>
                <dt>← {t("links")}</dt>
                <dd>
                  {incoming.length === 0 ? (
                    t("none")
                  ) : (
                    <ul class="plain">{incoming.map((i) => linkTo(i.id))}</ul>
                  )}
                </dd>
              </dl>
              <section aria-labelledby="body-title">
                <h2 id="body-title">{t("body")}</h2>
                <div
                  class="markdown"
                  // The only HTML injected: markdown-it's escaped output (html: false, safe links).
                  dangerouslySetInnerHTML={{ __html: renderMarkdown(body) }}
                />
              </section>
            </article>
          );
        }}
      </Loaded>
      {usage.status === "done" ? (
        <UsageChart usage={usage.value} title={t("usageOfEntry")} />
      ) : usage.status === "error" ? (
        <section aria-label={t("usageOfEntry")}>
          <h2>{t("usageOfEntry")}</h2>
          <ErrorBox error={usage.error} />
        </section>
      ) : null}
    </RepoPage>
  );
}
