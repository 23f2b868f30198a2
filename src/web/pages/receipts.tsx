/**
 * Receipts (README "Load receipts"): what surfaced for whom and why — the caller's own
 * (`GET /api/v1/receipts`) or a repository's (`GET …/knowledge/receipts`, writers and up; a
 * reader gets the server's 403 `forbidden` with a line saying who may look). Each receipt
 * shows its time, user, client, agent session, query and/or tool (with the page asked for and
 * the candidates counted, when the view is not filtered) and per hit its rank, id (linking to
 * the entry page), repository, revision (blob sha) and why it fired (`on_query` word,
 * `on_tool` name, text rank). Pages of `{items, next_cursor}` are appended by "Older
 * receipts" (the `cursor` passed back) until `next_cursor` is null. A server without
 * receipts answers 404 on the address itself; that is shown as "keeps no receipts", not as a
 * failure. Everything is shown as text only.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, getJson, repoPath } from "../api.js";
import { ErrorBox, Time } from "../components/async.js";
import { RepoPage } from "../components/repo-nav.js";
import { t } from "../i18n.js";
import { repoHref } from "../router.js";

/** Why a hit fired, as `receipt-schema.ts` gives it. */
type Why =
  | { kind: "on_query"; word: string }
  | { kind: "on_tool"; name: string }
  | { kind: "text" };

/** One surfaced hit (`receiptHitSchema`). */
interface ReceiptHit {
  rank: number;
  repo: string;
  id: string;
  revision: string;
  draft: boolean;
  score: number;
  why: Why[];
}

/** One receipt (`receiptSchema`). */
interface Receipt {
  id: string;
  at: string;
  user: string;
  client: string;
  session: string | null;
  query: string | null;
  tool: string | null;
  offset: number | null;
  limit: number;
  total: number | null;
  hits: ReceiptHit[];
}

/** A page of receipts (`receiptPageSchema`). */
interface ReceiptPage {
  items: Receipt[];
  next_cursor: string | null;
}

/** How many characters of a revision (blob sha) are shown; the whole is its title. */
const REVISION_SHOWN = 12;

/** One reason as text: `on_query: word`, `on_tool: name`, `text`. */
export function whyText(why: Why): string {
  if (why.kind === "on_query") return `on_query: ${why.word}`;
  if (why.kind === "on_tool") return `on_tool: ${why.name}`;
  return t("whyText");
}

function Hit(props: { hit: ReceiptHit }) {
  const { hit } = props;
  const slash = hit.repo.indexOf("/");
  const owner = slash > 0 ? hit.repo.slice(0, slash) : hit.repo;
  const name = slash > 0 ? hit.repo.slice(slash + 1) : "";
  return (
    <li data-hit={hit.id} data-rank={hit.rank}>
      <span data-col="rank">#{hit.rank}</span>{" "}
      <a href={repoHref(owner, name, "entries", hit.id)} data-col="id">
        <code>{hit.id}</code>
      </a>
      {hit.draft ? <span class="badge draft">{t("unverified")}</span> : null}{" "}
      <span class="muted">
        {t("inRepo")} <span data-col="repo">{hit.repo}</span>, {t("revision")}{" "}
        <code data-col="revision" data-revision={hit.revision} title={hit.revision}>
          {hit.revision.slice(0, REVISION_SHOWN)}
        </code>
      </span>
      <div class="small">
        {t("why")}:{" "}
        <span data-col="why">{hit.why.length === 0 ? "—" : hit.why.map(whyText).join(", ")}</span>
      </div>
    </li>
  );
}

function Row(props: { receipt: Receipt }) {
  const r = props.receipt;
  return (
    <tr data-receipt={r.id}>
      <td data-col="at">
        <Time at={r.at} />
      </td>
      <td data-col="user">{r.user}</td>
      <td>
        <span data-col="client">{r.client}</span>
        <div class="small muted">
          {t("session")}: <span data-col="session">{r.session ?? "—"}</span>
        </div>
      </td>
      <td>
        {r.query !== null ? (
          <div>
            <span class="muted">{t("query")}:</span> <span data-col="query">{r.query}</span>
          </div>
        ) : null}
        {r.tool !== null ? (
          <div>
            <span class="muted">{t("tool")}:</span> <code data-col="tool">{r.tool}</code>
          </div>
        ) : null}
        {r.total !== null ? (
          <div class="small muted" data-col="total">
            {t("receiptPage", { offset: r.offset ?? 0, limit: r.limit, total: r.total })}
          </div>
        ) : null}
      </td>
      <td>
        {r.hits.length === 0 ? (
          <span class="muted">{t("nothingSurfaced")}</span>
        ) : (
          <ol class="plain hits">
            {r.hits.map((h) => (
              <Hit key={`${h.repo}/${h.id}/${h.rank}`} hit={h} />
            ))}
          </ol>
        )}
      </td>
    </tr>
  );
}

/** The list's state: the receipts loaded so far and where the next page starts. */
type ListState =
  | { status: "loading" }
  | { status: "error"; error: ApiError | Error }
  | { status: "done"; items: Receipt[]; next: string | null; more: boolean; moreError?: Error };

function ReceiptsList(props: { path: string; repo: boolean }) {
  const { path } = props;
  const [state, setState] = useState<ListState>({ status: "loading" });
  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    getJson<ReceiptPage>(path).then(
      (page) =>
        live &&
        setState({ status: "done", items: page.items, next: page.next_cursor, more: false }),
      (error: Error) => live && setState({ status: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (state.status === "loading") return <p role="status">{t("loading")}</p>;
  if (state.status === "error") {
    const error = state.error;
    // A 404 with no repository code: the address is absent (receipts not on this server).
    if (error instanceof ApiError && error.status === 404 && error.code !== "repo_not_found") {
      return <p class="notice">{t("receiptsMissing")}</p>;
    }
    return (
      <>
        {props.repo && error instanceof ApiError && error.status === 403 ? (
          <p class="notice" data-forbidden>
            {t("receiptsForbidden")}
          </p>
        ) : null}
        <ErrorBox error={error} />
      </>
    );
  }
  const older = () => {
    if (state.next === null) return;
    const shown = state;
    setState({ ...shown, more: true });
    const sep = path.includes("?") ? "&" : "?";
    getJson<ReceiptPage>(`${path}${sep}cursor=${encodeURIComponent(shown.next ?? "")}`).then(
      (page) =>
        setState({
          status: "done",
          items: [...shown.items, ...page.items],
          next: page.next_cursor,
          more: false,
        }),
      (error: Error) => setState({ ...shown, more: false, moreError: error }),
    );
  };
  if (state.items.length === 0) return <p>{t("noReceipts")}</p>;
  return (
    <>
      <p class="small muted" data-count={state.items.length}>
        {t("receiptsShown", { n: state.items.length })}
      </p>
      <div class="scroll">
        <table class="receipts">
          <thead>
            <tr>
              <th scope="col">{t("when")}</th>
              <th scope="col">{t("user")}</th>
              <th scope="col">{t("client")}</th>
              <th scope="col">{t("queryOrTool")}</th>
              <th scope="col">{t("hits")}</th>
            </tr>
          </thead>
          <tbody>
            {state.items.map((r) => (
              <Row key={r.id} receipt={r} />
            ))}
          </tbody>
        </table>
      </div>
      {state.moreError ? <ErrorBox error={state.moreError} /> : null}
      {state.next !== null ? (
        <button type="button" onClick={older} disabled={state.more} data-older>
          {state.more ? t("loading") : t("olderReceipts")}
        </button>
      ) : null}
    </>
  );
}

/** A repository's receipts (writers and admins of it). */
export function RepoReceiptsPage(props: { owner: string; name: string }) {
  const { owner, name } = props;
  return (
    <RepoPage owner={owner} name={name} current="receipts" title={t("receiptsRepo")}>
      <ReceiptsList path={`${repoPath(owner, name)}/knowledge/receipts`} repo />
    </RepoPage>
  );
}

/** The caller's own receipts. */
export function MyReceiptsPage() {
  return (
    <>
      <h1>{t("receiptsMine")}</h1>
      <ReceiptsList path="/api/v1/receipts" repo={false} />
    </>
  );
}
