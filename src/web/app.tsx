/**
 * The web view's shell: skip link, header (name, main navigation, language switch, who is
 * signed in, sign-out), `<main>` with the page of the hash route, or the sign-in page when
 * there is no session. Every page re-renders when the language changes.
 */
import { useEffect } from "preact/hooks";
import { checkSession, session, signOut } from "./api.js";
import { type Lang, lang, setLang, t } from "./i18n.js";
import { DeadPage } from "./pages/dead.js";
import { DraftsPage } from "./pages/drafts.js";
import { EntriesPage } from "./pages/entries.js";
import { EntryPage } from "./pages/entry.js";
import { PullPage, PullsPage } from "./pages/pulls.js";
import { MyReceiptsPage, RepoReceiptsPage } from "./pages/receipts.js";
import { ReposPage } from "./pages/repos.js";
import { SignInPage } from "./pages/sign-in.js";
import { UsagePage } from "./pages/usage.js";
import { type Route, route } from "./router.js";
import { useSignal } from "./signal.js";

function Page(props: { route: Route }) {
  const r = props.route;
  switch (r.page) {
    case "repos":
      return <ReposPage />;
    case "receipts-mine":
      return <MyReceiptsPage />;
    case "entries":
      return <EntriesPage owner={r.owner} name={r.name} />;
    case "entry":
      return <EntryPage owner={r.owner} name={r.name} id={r.id} />;
    case "drafts":
      return <DraftsPage owner={r.owner} name={r.name} />;
    case "pulls":
      return <PullsPage owner={r.owner} name={r.name} />;
    case "pull":
      return <PullPage owner={r.owner} name={r.name} number={r.number} />;
    case "usage":
      return <UsagePage owner={r.owner} name={r.name} />;
    case "dead":
      return <DeadPage owner={r.owner} name={r.name} query={r.query} />;
    case "receipts":
      return <RepoReceiptsPage owner={r.owner} name={r.name} />;
    default:
      return (
        <>
          <h1>{t("notFound")}</h1>
          <p>{t("notFoundText")}</p>
        </>
      );
  }
}

/** The application. */
export function App() {
  const current = useSignal(lang);
  const who = useSignal(session);
  const where = useSignal(route);
  useEffect(() => {
    document.documentElement.lang = current;
    void checkSession();
  }, []);
  useEffect(() => {
    document.title = `${t("appName")}`;
  }, [current]);
  return (
    <div key={current}>
      <button type="button" class="skip" onClick={() => document.getElementById("main")?.focus()}>
        {t("skipToContent")}
      </button>
      <header class="top">
        <a class="brand" href="#/repos">
          {t("appName")}
        </a>
        {who ? (
          <nav aria-label={t("mainNav")}>
            <ul>
              <li>
                <a href="#/repos">{t("repositories")}</a>
              </li>
              <li>
                <a href="#/receipts">{t("myReceipts")}</a>
              </li>
            </ul>
          </nav>
        ) : null}
        <div class="side">
          <label for="lang">{t("language")}</label>
          <select
            id="lang"
            value={current}
            onChange={(e) => setLang((e.target as HTMLSelectElement).value as Lang)}
          >
            <option value="en">English</option>
            <option value="ru">Русский</option>
          </select>
          {who ? (
            <>
              <span class="who" data-user={who.user}>
                {t("signedInAs", { name: who.user })}
                {who.site_admin ? ` (${t("siteAdmin")})` : ""}
              </span>
              <button type="button" onClick={() => void signOut()}>
                {t("signOut")}
              </button>
            </>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {who === undefined ? (
          <p role="status">{t("loading")}</p>
        ) : who === null ? (
          <SignInPage />
        ) : (
          <Page route={where} />
        )}
      </main>
    </div>
  );
}
