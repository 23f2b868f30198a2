/**
 * Loading a page's data: {@link useAsync} runs a loader when its keys change and keeps its
 * state; {@link Loaded} shows the loading line, the refusal (a 402 as the edition's message,
 * see Editions in the README) or the content.
 */
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useId, useState } from "preact/hooks";
import { ApiError } from "../api.js";
import { t } from "../i18n.js";

/** The state of a load. */
export type AsyncState<T> =
  | { status: "loading" }
  | { status: "error"; error: ApiError | Error }
  | { status: "done"; value: T };

/**
 * Runs `load` on mount and whenever `keys` change; `reload` runs it again.
 *
 * @param load - the loader.
 * @param keys - what the loader depends on.
 */
export function useAsync<T>(
  load: () => Promise<T>,
  keys: readonly unknown[],
): [AsyncState<T>, () => void] {
  const [state, setState] = useState<AsyncState<T>>({ status: "loading" });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    load().then(
      (value) => live && setState({ status: "done", value }),
      (error: Error) => live && setState({ status: "error", error }),
    );
    return () => {
      live = false;
    };
  }, [...keys, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return [state, reload];
}

/** A refusal shown in place of data. */
export function ErrorBox(props: { error: ApiError | Error; onRetry?: () => void }) {
  const { error } = props;
  const titleId = useId();
  if (error instanceof ApiError && error.status === 402) {
    return (
      <section class="notice pro" role="status" aria-labelledby={titleId}>
        <h3 id={titleId}>{t("proNeeded")}</h3>
        <p>{error.message}</p>
      </section>
    );
  }
  return (
    <div class="notice error" role="alert">
      <p>
        <strong>{t("error")}</strong>
        {error instanceof ApiError ? <code class="code">{error.code}</code> : null} {error.message}
      </p>
      {props.onRetry ? (
        <button type="button" onClick={props.onRetry}>
          {t("retry")}
        </button>
      ) : null}
    </div>
  );
}

/** The loading line, the refusal or `children(value)`. */
export function Loaded<T>(props: {
  state: AsyncState<T>;
  onRetry?: () => void;
  children: (value: T) => ComponentChildren;
}) {
  const { state } = props;
  if (state.status === "loading") {
    return (
      <p class="loading" role="status">
        {t("loading")}
      </p>
    );
  }
  if (state.status === "error") {
    return <ErrorBox error={state.error} {...(props.onRetry ? { onRetry: props.onRetry } : {})} />;
  }
  return <>{props.children(state.value)}</>;
}

/** An ISO time as a short local date and time; `null` as "never". */
export function Time(props: { at: string | null | undefined }) {
  if (!props.at) return <span>{t("never")}</span>;
  const date = new Date(props.at);
  return (
    <time dateTime={props.at}>
      {Number.isNaN(date.getTime()) ? props.at : date.toLocaleString()}
    </time>
  );
}
