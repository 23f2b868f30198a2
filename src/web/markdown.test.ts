import { describe, expect, it } from "vitest";
import { entryBody, isSafeLink, renderMarkdown } from "./markdown.js";

describe("isSafeLink", () => {
  it("keeps http(s), mailto and relative addresses", () => {
    for (const url of [
      "https://example.com/a",
      "http://x.test",
      "mailto:a@b.c",
      "docs/a.md",
      "#top",
      "/x",
    ]) {
      expect(isSafeLink(url), url).toBe(true);
    }
  });

  it("refuses javascript:, data:, vbscript:, file: and protocol-relative, also disguised", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\tscript:alert(1)",
      " javascript:alert(1)",
      "\u0000javascript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "//evil.example/x",
    ]) {
      expect(isSafeLink(url), JSON.stringify(url)).toBe(false);
    }
  });
});

describe("renderMarkdown", () => {
  it("escapes raw HTML and leaves unsafe links as text", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1)) ![i](data:image/png;base64,AA==)',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript|src="data/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("[x](javascript:alert(1))");
  });

  it("renders safe markdown with hardened links", () => {
    const html = renderMarkdown("**b** [doc](https://example.com)");
    expect(html).toContain("<strong>b</strong>");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});

describe("entryBody", () => {
  it("drops the frontmatter", () => {
    expect(entryBody("---\nid: x\nsummary: s\n---\n\n# Body\n")).toBe("\n# Body\n");
    expect(entryBody("no frontmatter")).toBe("no frontmatter");
  });
});
