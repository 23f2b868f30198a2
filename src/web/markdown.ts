/**
 * Safe rendering of an entry's markdown body: markdown-it with `html: false` (raw HTML in the
 * body is shown as text, escaped by markdown-it), links and images only with `http:`,
 * `https:`, `mailto:` or a relative address (no `javascript:`, `data:`, `vbscript:`, `file:`);
 * links open with `rel="noopener noreferrer nofollow"`. The output is markdown-it's own
 * escaped HTML, the only HTML the web view ever injects.
 */
import MarkdownIt from "markdown-it";

const SAFE_SCHEME = /^(https?:|mailto:)/i;
// A scheme is letters, digits, +, -, . before a colon that comes before any / ? #.
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Whether a link target is allowed: an http(s) or mailto address, or one with no scheme
 * (relative, `#anchor`). Control characters and whitespace are stripped before the check,
 * as browsers do when they parse `java\tscript:`.
 *
 * @param url - the target as written (markdown-it normalised).
 */
export function isSafeLink(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point.
  const bare = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  if (SAFE_SCHEME.test(bare)) return true;
  return !HAS_SCHEME.test(bare) && !bare.startsWith("//");
}

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.validateLink = isSafeLink;
const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  if (token) {
    token.attrSet("rel", "noopener noreferrer nofollow");
    token.attrSet("target", "_blank");
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/**
 * The body's HTML (escaped by markdown-it; see the module header).
 *
 * @param source - markdown text.
 */
export function renderMarkdown(source: string): string {
  return md.render(source);
}

/**
 * The body of an entry file: the text after the YAML frontmatter (`---` … `---`).
 *
 * @param file - the whole file.
 */
export function entryBody(file: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(file);
  return match ? file.slice(match[0].length) : file;
}
