/**
 * Which hosted repository the current clone is (`lore mr` without `--repo`), pure: its
 * `origin` remote's URL, when it points at the configured team server.
 */

/**
 * The `owner/name` of a remote URL `…/<owner>/<name>.git` (or without `.git`) whose host —
 * and for an HTTP(S) remote, the port — is the team server's; `undefined` for a remote
 * elsewhere or a URL that is not one.
 *
 * @param remote - the origin's URL (`http://127.0.0.1:7377/acme/app.git`,
 *   `ssh://git@host:2222/acme/app.git`).
 * @param server - `[server] url` (`http://127.0.0.1:7377`).
 */
export function repoOfRemote(remote: string, server: string): string | undefined {
  let url: URL;
  let base: URL;
  try {
    url = new URL(remote.trim());
    base = new URL(server);
  } catch {
    return undefined;
  }
  if (url.hostname !== base.hostname) return undefined;
  const http = url.protocol === "http:" || url.protocol === "https:";
  if (http && (url.protocol !== base.protocol || url.port !== base.port)) return undefined;
  if (!http && url.protocol !== "ssh:") return undefined;
  const match = /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(decodeURIComponent(url.pathname));
  if (match === null) return undefined;
  return `${match[1]}/${match[2]}`.toLowerCase();
}
