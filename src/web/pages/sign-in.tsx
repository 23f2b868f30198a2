/** The sign-in page: a token field exchanged for a session cookie (`POST /web/api/session`). */
import { useState } from "preact/hooks";
import { type ApiError, signIn } from "../api.js";
import { ErrorBox } from "../components/async.js";
import { t } from "../i18n.js";

/** The sign-in form. */
export function SignInPage() {
  const [token, setToken] = useState("");
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(token.trim());
      setToken("");
    } catch (caught) {
      setError(caught instanceof Error ? caught : new Error(String(caught)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="sign-in">
      <h1>{t("signInTitle")}</h1>
      <form onSubmit={submit}>
        <label for="token">{t("token")}</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          aria-describedby="token-help"
        />
        <p id="token-help" class="muted">
          {t("signInHelp")}
        </p>
        <button type="submit" disabled={busy}>
          {t("signIn")}
        </button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
    </section>
  );
}
