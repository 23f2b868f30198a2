/**
 * Receipts: what surfaced for whom and why — the caller's own (`GET /api/v1/receipts`) or a
 * repository's (`GET …/knowledge/receipts`, writers and up). A server without receipts
 * answers 404 on the address itself; that is shown as "keeps no receipts", not as a failure.
 * The rows are read tolerantly (any field may be absent) and only ever shown as text.
 */
import { ApiError, getJson, repoPath } from "../api.js";
import { ErrorBox, Time, useAsync } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { t } from "../i18n.js";

/** One receipt as far as the page reads it. */
interface Receipt {
  id?: string | number;
  at?: string;
  created_at?: string;
  user?: string;
  client?: string;
  session?: string | null;
  query?: string;
  hits?: {
    id?: string;
    repo?: string;
    path?: string;
    summary?: string;
    why?: unknown;
    reason?: unknown;
    score?: number;
  }[];
}

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function ReceiptsTable(props: { load: ReturnType<typeof useAsync<{ items: Receipt[] }>>[0] }) {
  const { load } = props;
  if (load.status === "loading") return <p role="status">{t("loading")}</p>;
  if (load.status === "error") {
    const error = load.error;
    // A 404 with no repository code: the address is absent (receipts not on this server).
    if (error instanceof ApiError && error.status === 404 && error.code !== "repo_not_found") {
      return <p class="notice">{t("receiptsMissing")}</p>;
    }
    return <ErrorBox error={error} />;
  }
  const items = load.value.items ?? [];
  if (items.length === 0) return <p>{t("noReceipts")}</p>;
  return (
    <div class="scroll">
      <table class="receipts">
        <thead>
          <tr>
            <th scope="col">{t("when")}</th>
            <th scope="col">{t("user")}</th>
            <th scope="col">{t("client")}</th>
            <th scope="col">{t("query")}</th>
            <th scope="col">{t("hits")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r, i) => (
            <tr key={String(r.id ?? i)}>
              <td>
                <Time at={r.at ?? r.created_at} />
              </td>
              <td>{text(r.user)}</td>
              <td>
                {text(r.client)}
                {r.session ? <div class="small muted">{text(r.session)}</div> : null}
              </td>
              <td>{text(r.query)}</td>
              <td>
                <ul class="plain">
                  {(r.hits ?? []).map((h, j) => (
                    <li key={j}>
                      {text(h.summary ?? h.path ?? h.id)}{" "}
                      {h.why !== undefined || h.reason !== undefined ? (
                        <span class="muted">
                          — {t("why")}: {text(h.why ?? h.reason)}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A repository's receipts. */
export function RepoReceiptsPage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  const [load] = useAsync(
    () => getJson<{ items: Receipt[] }>(`${repoPath(owner, name)}/knowledge/receipts`),
    [owner, name],
  );
  return (
    <RepoPage owner={owner} name={name} current="receipts" title={t("receiptsRepo")}>
      <ReceiptsTable load={load} />
    </RepoPage>
  );
}

/** The caller's own receipts. */
export function MyReceiptsPage() {
  const [load] = useAsync(() => getJson<{ items: Receipt[] }>("/api/v1/receipts"), []);
  return (
    <>
      <h1>{t("receiptsMine")}</h1>
      <ReceiptsTable load={load} />
    </>
  );
}
