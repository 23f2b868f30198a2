/**
 * Drafts per branch, each marked unverified, with Deliver (per branch: `POST …/drafts/deliver`,
 * mode separate or same) and Discard (per draft: `DELETE …/drafts/{id}`) — the same endpoints
 * as the API, so the same services, rights and refusals.
 */
import { useState } from "preact/hooks";
import { type ApiError, type Draft, del, getJson, postJson, repoPath } from "../api.js";
import { ErrorBox, Loaded, Time, useAsync } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { t } from "../i18n.js";
import { entryBody, renderMarkdown } from "../markdown.js";
import { repoHref } from "../router.js";

/** The answer of a delivery. */
interface Delivery {
  commits: string[];
  branch: string;
  merge_request?: number;
  delivered: string[];
}

async function loadDrafts(owner: string, name: string): Promise<Draft[]> {
  const all: Draft[] = [];
  let after: string | null = null;
  do {
    const query = new URLSearchParams({ per_page: "100" });
    if (after) query.set("after", after);
    const page: { items: Draft[]; next_cursor: string | null } = await getJson(
      `${repoPath(owner, name)}/knowledge/drafts?${query}`,
    );
    all.push(...page.items);
    after = page.next_cursor;
  } while (after);
  return all;
}

function draftTitle(text: string): string {
  const summary = /^summary:\s*(.+)$/m.exec(text)?.[1];
  if (summary) return summary.replace(/^["']|["']$/g, "");
  const heading = /^#\s+(.+)$/m.exec(entryBody(text))?.[1];
  return heading ?? "";
}

/** The drafts page. */
export function DraftsPage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  const [state, reload] = useAsync(() => loadDrafts(owner, name), [owner, name]);
  const [message, setMessage] = useState<{ text: string; pull?: number } | null>(null);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const act = async (work: () => Promise<{ text: string; pull?: number }>) => {
    setError(null);
    setMessage(null);
    try {
      setMessage(await work());
      reload();
    } catch (caught) {
      setError(caught as Error);
    }
  };
  const deliver = (branch: string, mode: string, label: string) =>
    act(async () => {
      const body: Record<string, string> = { branch, mode };
      if (mode === "separate" && label.trim() !== "") body.label = label.trim();
      const answer = await postJson<Delivery>(
        `${repoPath(owner, name)}/knowledge/drafts/deliver`,
        body,
      );
      if (answer.delivered.length === 0) return { text: t("deliveryNothing", { branch }) };
      return {
        text: t("deliveryDone", {
          n: answer.delivered.length,
          commits: answer.commits.length,
          branch: answer.branch,
        }),
        ...(answer.merge_request === undefined ? {} : { pull: answer.merge_request }),
      };
    });
  const discard = (id: string) => {
    if (!window.confirm(t("confirmDiscard", { id }))) return;
    void act(async () => {
      await del(`${repoPath(owner, name)}/knowledge/drafts/${encodeURIComponent(id)}`);
      return { text: t("discarded") };
    });
  };
  return (
    <RepoPage owner={owner} name={name} current="drafts" title={t("drafts")}>
      <div aria-live="polite">
        {message ? (
          <p class="notice ok" role="status">
            {message.text}{" "}
            {message.pull === undefined ? null : (
              <a href={repoHref(owner, name, "pulls", message.pull)}>
                {t("pull", { n: message.pull })}
              </a>
            )}
          </p>
        ) : null}
      </div>
      {error ? <ErrorBox error={error} /> : null}
      <Loaded state={state} onRetry={reload}>
        {(drafts) => {
          if (drafts.length === 0) return <p>{t("noDrafts")}</p>;
          const branches = new Map<string, Draft[]>();
          for (const d of drafts) branches.set(d.branch, [...(branches.get(d.branch) ?? []), d]);
          return [...branches].map(([branch, list]) => (
            <BranchDrafts
              key={branch}
              owner={owner}
              name={name}
              branch={branch}
              drafts={list}
              onDeliver={deliver}
              onDiscard={discard}
            />
          ));
        }}
      </Loaded>
    </RepoPage>
  );
}

function BranchDrafts(props: {
  owner: string;
  name: string;
  branch: string;
  drafts: Draft[];
  onDeliver: (branch: string, mode: string, label: string) => void;
  onDiscard: (id: string) => void;
}) {
  const { branch, drafts } = props;
  const [mode, setMode] = useState("separate");
  const [label, setLabel] = useState("");
  const key = branch.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <section class="branch" aria-labelledby={`branch-${key}`} data-branch={branch}>
      <h2 id={`branch-${key}`}>
        {t("branch")} <code>{branch}</code>
      </h2>
      <form
        class="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          props.onDeliver(branch, mode, label);
        }}
      >
        <label for={`mode-${key}`}>{t("deliverMode")}</label>
        <select
          id={`mode-${key}`}
          value={mode}
          onChange={(e) => setMode((e.target as HTMLSelectElement).value)}
        >
          <option value="separate">{t("modeSeparate")}</option>
          <option value="same">{t("modeSame")}</option>
        </select>
        <label for={`label-${key}`}>{t("label")}</label>
        <input
          id={`label-${key}`}
          value={label}
          disabled={mode !== "separate"}
          onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
        />
        <button type="submit">
          {t("deliver")} ({drafts.filter((d) => !d.delivered).length})
        </button>
      </form>
      <ul class="drafts">
        {drafts.map((d) => (
          <li key={d.id} class="draft" data-draft={d.id}>
            <h3>
              {draftTitle(d.text) || d.id} <span class="badge draft">{t("unverified")}</span>
              {d.delivered ? <span class="badge ok">{t("delivered")}</span> : null}
            </h3>
            <p class="muted">
              <code>{d.id}</code> · {t("author")}: {d.author} · {t("created")}:{" "}
              <Time at={d.created_at} /> · {t("bytes", { n: d.size })}
            </p>
            {d.delivered ? (
              <p>
                {t("deliveredInto", {
                  branch: d.delivered.branch,
                  commit: d.delivered.commit.slice(0, 12),
                })}
                {d.delivered.merge_request === undefined ? null : (
                  <>
                    {" · "}
                    <a href={repoHref(props.owner, props.name, "pulls", d.delivered.merge_request)}>
                      {t("pull", { n: d.delivered.merge_request })}
                    </a>
                  </>
                )}
              </p>
            ) : null}
            <details>
              <summary>{t("body")}</summary>
              <div
                class="markdown"
                // markdown-it's escaped output only (html: false, safe links): see markdown.ts.
                dangerouslySetInnerHTML={{ __html: renderMarkdown(entryBody(d.text)) }}
              />
            </details>
            <button type="button" class="danger" onClick={() => props.onDiscard(d.id)}>
              {t("discard")} <span class="visually-hidden">{d.id}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
