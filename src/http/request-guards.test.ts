import { describe, expect, it } from "vitest";
import { hasDotSegment, isLoopback } from "./request-guards.js";

describe("hasDotSegment", () => {
  it("finds . and .. segments, plain, percent-encoded or behind an encoded slash", () => {
    for (const path of [
      "/api/v1/repos/a/b/raw/../x",
      "/api/v1/repos/a/b/raw/%2e%2e/x",
      "/api/v1/repos/a/b/raw/%2E%2e/x",
      "/api/v1/repos/a/b/raw/.%2e/x",
      "/api/v1/repos/a/b/raw/x/..",
      "/api/v1/repos/a/b/raw/./x",
      "/api/v1/repos/a/b/raw/..%2fetc",
      "/api/v1/repos/a/b/raw/..%5cetc",
    ]) {
      expect([path, hasDotSegment(path)]).toEqual([path, true]);
    }
    for (const path of ["/api/v1/repos/a/b/raw/.gitriver/x.md", "/a/b/..c", "/a/...", "/a/%zz"]) {
      expect([path, hasDotSegment(path)]).toEqual([path, false]);
    }
  });
});

describe("isLoopback", () => {
  it("is 127.0.0.0/8, localhost in any case, ::1", () => {
    expect(isLoopback("127.0.0.2")).toBe(true);
    expect(isLoopback("LOCALHOST")).toBe(true);
    expect(isLoopback("[::1]")).toBe(true);
    expect(isLoopback("0.0.0.0")).toBe(false);
    expect(isLoopback("localhost.evil.example")).toBe(false);
    expect(isLoopback("127.0.0.1.evil.example")).toBe(false);
  });
});
