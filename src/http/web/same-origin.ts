/**
 * Whether a browser request comes from the server's own pages (the web view's forgery
 * checks): an `Origin`, when sent, naming the same host and port as `Host`, and a
 * `Sec-Fetch-Site`, when sent, of `same-origin` (or `none`: typed by the user). A client
 * that is not a browser sends neither and passes; the anti-forgery token is checked apart.
 *
 * @param header - reads a request header (lower-case name).
 * @param host - the request's `Host`.
 */
export function fromOwnOrigin(header: (name: string) => string | undefined, host: string): boolean {
  const origin = header("origin");
  if (origin !== undefined) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    if (url.host.toLowerCase() !== host.toLowerCase()) return false;
  }
  const site = header("sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none";
}
