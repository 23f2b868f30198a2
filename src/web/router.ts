/**
 * Hash routes of the web view (`#/repos/acme/app/entries/<id>`): the server serves one
 * index.html at `/`, so the route lives after `#` and needs no server fallback.
 */
import { signal } from "./signal.js";

/** A parsed route. */
export type Route =
  | { page: "repos" }
  | { page: "receipts-mine" }
  | {
      page: "entries" | "drafts" | "pulls" | "usage" | "receipts";
      owner: string;
      name: string;
    }
  | { page: "entry"; owner: string; name: string; id: string }
  | { page: "pull"; owner: string; name: string; number: number }
  | { page: "dead"; owner: string; name: string; query: URLSearchParams }
  | { page: "not-found" };

const REPO_PAGES = ["drafts", "pulls", "usage", "receipts"] as const;

/**
 * Parses a location hash.
 *
 * @param hash - `location.hash`, e.g. `#/repos/acme/app/dead?min_shown=1` (a query only
 *   on the dead-memory page: its thresholds).
 */
export function parseRoute(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?", 2);
  const parts = path
    .split("/")
    .filter((p) => p !== "")
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  if (parts.length === 0 || (parts.length === 1 && parts[0] === "repos")) return { page: "repos" };
  if (parts.length === 1 && parts[0] === "receipts") return { page: "receipts-mine" };
  if (parts[0] !== "repos" || parts.length < 3) return { page: "not-found" };
  const owner = parts[1] as string;
  const name = parts[2] as string;
  if (parts.length === 3) return { page: "entries", owner, name };
  const sub = parts[3] as string;
  if (parts.length === 4 && sub === "dead") {
    return { page: "dead", owner, name, query: new URLSearchParams(search) };
  }
  if (parts.length === 4 && (REPO_PAGES as readonly string[]).includes(sub)) {
    return { page: sub as (typeof REPO_PAGES)[number], owner, name };
  }
  if (parts.length === 5 && sub === "entries") {
    return { page: "entry", owner, name, id: parts[4] as string };
  }
  if (parts.length === 5 && sub === "pulls" && /^[1-9]\d*$/.test(parts[4] as string)) {
    return { page: "pull", owner, name, number: Number(parts[4]) };
  }
  return { page: "not-found" };
}

/**
 * The hash of a repository page.
 *
 * @param owner - the repository's owner.
 * @param name - its name.
 * @param rest - more path parts (each encoded).
 */
export function repoHref(owner: string, name: string, ...rest: (string | number)[]): string {
  return `#/repos/${[owner, name, ...rest].map((p) => encodeURIComponent(String(p))).join("/")}`;
}

/** The current route, following `hashchange`. */
export const route = signal<Route>(parseRoute(location.hash));
window.addEventListener("hashchange", () => route.set(parseRoute(location.hash)));
