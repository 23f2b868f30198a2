/**
 * The heading and sub-navigation of a repository's pages (entries, drafts, merge requests,
 * usage, dead memory, receipts); the current page is marked `aria-current`.
 */
import type { ComponentChildren } from "preact";
import { type StringKey, t } from "../i18n.js";
import { repoHref } from "../router.js";

const TABS: [string, StringKey][] = [
  ["", "entries"],
  ["drafts", "drafts"],
  ["pulls", "pulls"],
  ["usage", "usage"],
  ["dead", "dead"],
  ["receipts", "receipts"],
];

/** A repository page: `<h1>` with the page's title, the tabs, then `children`. */
export function RepoPage(props: {
  owner: string;
  name: string;
  current: string;
  title: string;
  children: ComponentChildren;
}) {
  const full = `${props.owner}/${props.name}`;
  return (
    <>
      <p class="crumbs">
        <a href="#/repos">{t("repositories")}</a> /{" "}
        <a href={repoHref(props.owner, props.name)}>{full}</a>
      </p>
      <h1>
        {props.title} <span class="muted">· {full}</span>
      </h1>
      <nav class="tabs" aria-label={full}>
        <ul>
          {TABS.map(([sub, key]) => (
            <li key={key}>
              <a
                href={
                  sub === ""
                    ? repoHref(props.owner, props.name)
                    : repoHref(props.owner, props.name, sub)
                }
                aria-current={props.current === key ? "page" : undefined}
              >
                {t(key)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {props.children}
    </>
  );
}
