/**
 * A tiny observable value (no dependency): the language, the session and the hash route are
 * signals the app subscribes to with {@link useSignal}.
 */
import { useEffect, useState } from "preact/hooks";

/** A value with subscribers. */
export interface Signal<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: (value: T) => void): () => void;
}

/**
 * Makes a signal.
 *
 * @param initial - the first value.
 */
export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      value = next;
      for (const listener of [...listeners]) listener(next);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The signal's value in a component, re-rendering on change.
 *
 * @param source - the signal.
 */
export function useSignal<T>(source: Signal<T>): T {
  const [value, setValue] = useState(source.get());
  useEffect(() => {
    setValue(source.get());
    return source.subscribe(setValue);
  }, [source]);
  return value;
}
