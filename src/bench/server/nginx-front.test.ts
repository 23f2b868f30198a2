import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findNginx, nginxConfig, nginxSite, readAccessLog } from "./nginx-front.js";

describe("nginxSite", () => {
  it("is the README's nginx example of 'Several servers behind nginx'", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Several servers behind nginx"));
    const block = /```nginx\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(nginxSite({ listen: "127.0.0.1:8080", upstreams: [7381, 7382, 7383] }));
  });

  it("lists every upstream port and keeps idle connections under the server's 65 s", () => {
    const site = nginxSite({ listen: "127.0.0.1:1", upstreams: [5, 6] });
    expect(site).toContain("server 127.0.0.1:5 max_fails=1 fail_timeout=5s;\n");
    expect(site).toContain("server 127.0.0.1:6 max_fails=1 fail_timeout=5s;\n");
    expect(site).toMatch(/keepalive_timeout 60s;/);
  });
});

describe("nginxConfig", () => {
  it("runs in the foreground with everything under its prefix, the site inside http", () => {
    const conf = nginxConfig({ prefix: "/tmp/p", port: 9, upstreams: [5], user: "root" });
    expect(conf.startsWith("user root;\ndaemon off;\n")).toBe(true);
    expect(conf).toContain("pid /tmp/p/nginx.pid;");
    expect(conf).toContain("client_body_temp_path /tmp/p/client_body;");
    expect(conf).toContain("listen 127.0.0.1:9;");
    expect(conf.trimEnd().endsWith("}\n}")).toBe(true);
    expect(nginxConfig({ prefix: "/p", port: 9, upstreams: [5] }).startsWith("daemon off;")).toBe(
      true,
    );
  });
});

describe("readAccessLog", () => {
  it("reads the lore format, a request nginx passed on naming both servers", () => {
    const conf = nginxConfig({ prefix: "/tmp/p", port: 9, upstreams: [5] });
    expect(conf).toContain("access_log /tmp/p/access.log lore;");
    const text = [
      "1767000000.123|200|127.0.0.1:7381|200|POST|/mcp|0.050",
      "1767000001.500|200|127.0.0.1:7382, 127.0.0.1:7381|502, 200|POST|/api/v1/x/shown|1.250",
      "1767000002.000|400|-|-|GET|/bad|0.000",
      "not a line of the format",
    ].join("\n");
    expect(readAccessLog(text)).toEqual([
      {
        at: 1767000000123,
        status: 200,
        upstreams: [7381],
        upstreamStatuses: ["200"],
        method: "POST",
        path: "/mcp",
        ms: 50,
      },
      {
        at: 1767000001500,
        status: 200,
        upstreams: [7382, 7381],
        upstreamStatuses: ["502", "200"],
        method: "POST",
        path: "/api/v1/x/shown",
        ms: 1250,
      },
      {
        at: 1767000002000,
        status: 400,
        upstreams: [],
        upstreamStatuses: ["-"],
        method: "GET",
        path: "/bad",
        ms: 0,
      },
    ]);
  });
});

describe("findNginx", () => {
  it("takes the first nginx on PATH", () => {
    const dir = mkdtempSync(join(tmpdir(), "lore-nginx-path-"));
    try {
      writeFileSync(join(dir, "nginx"), "");
      expect(findNginx(`/nonexistent${delimiter}${dir}`)).toBe(join(dir, "nginx"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
