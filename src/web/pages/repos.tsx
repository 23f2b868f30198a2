/** The repositories the user can read (`GET /api/v1/repos`: the server filters by rights). */
import { getJson, type Repo } from "../api.js";
import { Loaded, useAsync } from "../components/async.js";
import { t } from "../i18n.js";
import { repoHref } from "../router.js";

/** The list of readable repositories. */
export function ReposPage() {
  const [state, reload] = useAsync(() => getJson<Repo[]>("/api/v1/repos"), []);
  return (
    <>
      <h1>{t("repositories")}</h1>
      <Loaded state={state} onRetry={reload}>
        {(repos) =>
          repos.length === 0 ? (
            <p>{t("noRepos")}</p>
          ) : (
            <table class="repos">
              <thead>
                <tr>
                  <th scope="col">{t("repository")}</th>
                  <th scope="col">{t("defaultBranch")}</th>
                  <th scope="col">{t("permission")}</th>
                </tr>
              </thead>
              <tbody>
                {repos.map((repo) => {
                  const [owner = "", name = ""] = repo.full_name.split("/");
                  return (
                    <tr key={repo.full_name}>
                      <td>
                        <a href={repoHref(owner, name)}>{repo.full_name}</a>{" "}
                        <span class="badge">{repo.public ? t("public") : t("private")}</span>
                      </td>
                      <td>
                        <code>{repo.default_branch}</code>
                      </td>
                      <td>{repo.permission}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </>
  );
}
