import { describe, expect, it } from "vitest";
import { needOf, parseGitHttpPath, parseGitSshCommand } from "./git-service-path.js";

describe("parseGitHttpPath", () => {
  it("reads the three smart-HTTP endpoints", () => {
    expect(parseGitHttpPath("GET", "/acme/app.git/info/refs", "git-upload-pack")).toEqual({
      ok: true,
      target: {
        owner: "acme",
        name: "app",
        fullName: "acme/app",
        endpoint: "info/refs",
        service: "git-upload-pack",
      },
    });
    const push = parseGitHttpPath("POST", "/acme/app.git/git-receive-pack", undefined);
    expect(push.ok && push.target.service).toBe("git-receive-pack");
    expect(push.ok && needOf(push.target.service)).toBe("repo:write");
    const fetch = parseGitHttpPath("POST", "/acme/app.git/git-upload-pack", undefined);
    expect(fetch.ok && needOf(fetch.target.service)).toBe("repo:read");
  });

  it("is 404 for dumb HTTP, other files and other methods", () => {
    for (const [method, path, service] of [
      ["GET", "/acme/app.git/info/refs", undefined],
      ["GET", "/acme/app.git/info/refs", "git-upload-archive"],
      ["GET", "/acme/app.git/HEAD", undefined],
      ["GET", "/acme/app.git/objects/info/packs", undefined],
      ["GET", "/acme/app.git/git-upload-pack", undefined],
      ["PUT", "/acme/app.git/git-receive-pack", undefined],
      ["POST", "/acme/app.git/info/refs", "git-upload-pack"],
      ["GET", "/acme/app/info/refs", "git-upload-pack"],
      ["GET", "/acme.git/info/refs", "git-upload-pack"],
    ] as const) {
      expect(parseGitHttpPath(method, path, service), path).toEqual({
        ok: false,
        refusal: { kind: "not_git_route" },
      });
    }
  });

  it("refuses . and .. segments, raw and percent-encoded, and an encoded /", () => {
    for (const path of [
      "/acme/../acme/app.git/info/refs",
      "/acme/%2e%2e/app.git/info/refs",
      "/acme/%2E%2E/app.git/info/refs",
      "/acme/app.git/%2e%2e/%2e%2e/x/info/refs",
      "/acme/./app.git/info/refs",
      "/acme/..%2fsecret.git/info/refs",
      "/acme%2fx/app.git/info/refs",
      "/acme%5cx/app.git/info/refs",
    ]) {
      const parsed = parseGitHttpPath("GET", path, "git-upload-pack");
      expect(parsed.ok === false && parsed.refusal.kind, path).toBe("dot_segment");
    }
  });

  it("refuses a NUL or another control character, naming it, and an undecodable %", () => {
    for (const [path, character] of [
      ["/acme/app%00.git/info/refs", "U+0000"],
      ["/acme%00/app.git/info/refs", "U+0000"],
      ["/acme/app%0a.git/info/refs", "U+000A"],
      ["/acme/app%7F.git/info/refs", "U+007F"],
    ] as const) {
      expect(parseGitHttpPath("GET", path, "git-upload-pack"), path).toEqual({
        ok: false,
        refusal: { kind: "control_character", segment: expect.any(String), character },
      });
    }
    for (const path of ["/acme/%zz.git/info/refs", "/acme/%e2.git/info/refs"]) {
      const parsed = parseGitHttpPath("GET", path, "git-upload-pack");
      expect(parsed.ok === false && parsed.refusal.kind, path).toBe("bad_encoding");
    }
  });

  it("refuses a name with a leading - or outside the name alphabet", () => {
    for (const path of [
      "/acme/-app.git/info/refs",
      "/-acme/app.git/info/refs",
      "/acme/--upload-pack=x.git/info/refs",
      "/acme/a%20b.git/info/refs",
      "/Acme/app.git/info/refs",
    ]) {
      const parsed = parseGitHttpPath("GET", path, "git-upload-pack");
      expect(parsed.ok === false && parsed.refusal.kind, path).toBe("invalid_repo_name");
    }
  });
});

describe("parseGitSshCommand", () => {
  it("accepts the forms git sends", () => {
    for (const command of [
      "git-upload-pack '/acme/app.git'",
      "git-upload-pack 'acme/app.git'",
      "git-upload-pack acme/app.git",
      "git-upload-pack '/acme/app'",
      "git upload-pack '/acme/app.git'",
    ]) {
      expect(parseGitSshCommand(command), command).toEqual({
        ok: true,
        command: { service: "git-upload-pack", owner: "acme", name: "app", fullName: "acme/app" },
      });
    }
    const push = parseGitSshCommand("git-receive-pack '/acme/app.git'");
    expect(push.ok && push.command.service).toBe("git-receive-pack");
  });

  it("refuses every other command", () => {
    for (const command of [
      "sh",
      "ls",
      "",
      "git-upload-pack --help",
      "git-upload-pack",
      "git-upload-archive '/acme/app.git'",
      "git-upload-pack '/acme/app.git' '/acme/other.git'",
      "git-upload-pack '/acme/app.git'; sh",
      "git-upload-pack '/acme/app.git' && sh",
      "git-upload-pack $(sh)",
      "git-upload-pack '/acme/a'\\''pp.git'",
      "git-upload-pack '/acme/sub/app.git'",
      "git-receive-pack --receive-pack=sh acme/app.git",
    ]) {
      const parsed = parseGitSshCommand(command);
      expect(parsed.ok, command).toBe(false);
    }
    const dots = parseGitSshCommand("git-upload-pack '/acme/../app.git'");
    expect(dots.ok === false && dots.refusal.kind).toBe("dot_segment");
    const dash = parseGitSshCommand("git-upload-pack '/acme/-app.git'");
    expect(dash.ok === false && dash.refusal.kind).toBe("invalid_repo_name");
  });
});

describe("an upper-case repository name in a git URL", () => {
  it("gets the whole lower-case name as the hint, over HTTP and SSH", () => {
    const http = parseGitHttpPath("GET", "/ACME/APP.git/info/refs", "git-upload-pack");
    expect(
      http.ok === false && http.refusal.kind === "invalid_repo_name" && http.refusal.reason,
    ).toEqual({
      en: "upper case is not allowed; write it lower-case: acme/app",
      ru: "заглавные буквы не допускаются; напишите строчными: acme/app",
    });
    const ssh = parseGitSshCommand("git-upload-pack '/Acme/App.git'");
    expect(
      ssh.ok === false && ssh.refusal.kind === "invalid_repo_name" && ssh.refusal.reason.en,
    ).toBe("upper case is not allowed; write it lower-case: acme/app");
  });
});
