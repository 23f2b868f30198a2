import { describe, expect, it } from "vitest";
import { parseCgiHead } from "./cgi-response.js";
import { queryHoldsToken, readGitCredential } from "./git-credentials.js";

const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`;

describe("readGitCredential", () => {
  it("takes the Basic password as the token, the user name ignored, and Bearer", () => {
    expect(readGitCredential(basic("anna:lore_abc"))).toEqual({
      kind: "token",
      secret: "lore_abc",
    });
    expect(readGitCredential(basic("whoever:lore_abc"))).toEqual({
      kind: "token",
      secret: "lore_abc",
    });
    expect(readGitCredential("Bearer lore_abc")).toEqual({ kind: "token", secret: "lore_abc" });
    expect(readGitCredential("bearer   lore_abc")).toEqual({ kind: "token", secret: "lore_abc" });
  });

  it("says none for no header and for an empty password", () => {
    expect(readGitCredential(undefined)).toEqual({ kind: "none" });
    expect(readGitCredential("  ")).toEqual({ kind: "none" });
    expect(readGitCredential(basic("anna:"))).toEqual({ kind: "none" });
  });

  it("says malformed, never throws, for broken Basic and other schemes", () => {
    for (const header of [
      "Basic",
      "Basic !!!!",
      "Basic abc",
      basic("no-colon"),
      `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString("base64")}`,
      basic("anna:lore abc"),
      "Digest username=anna",
      "Basic a b c",
      `Basic ${"A".repeat(10_000)}`,
    ]) {
      expect(readGitCredential(header).kind, header).toBe("malformed");
    }
  });
});

describe("queryHoldsToken", () => {
  it("finds token-like parameters and values with the token prefix", () => {
    expect(queryHoldsToken(new URLSearchParams("service=git-upload-pack"), "lore_")).toBe(false);
    expect(queryHoldsToken(new URLSearchParams("token=x"), "lore_")).toBe(true);
    expect(queryHoldsToken(new URLSearchParams("Access_Token=x"), "lore_")).toBe(true);
    expect(
      queryHoldsToken(new URLSearchParams("service=git-upload-pack&x=lore_abc"), "lore_"),
    ).toBe(true);
  });
});

describe("parseCgiHead", () => {
  it("reads Status and the other headers, dropping hop-by-hop ones", () => {
    expect(
      parseCgiHead(
        "Status: 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: x\r\nbad line",
      ),
    ).toEqual({ status: 404, headers: [["Content-Type", "text/plain"]] });
    expect(parseCgiHead("Expires: Fri, 01 Jan 1980 00:00:00 GMT\nPragma: no-cache")).toEqual({
      status: 200,
      headers: [
        ["Expires", "Fri, 01 Jan 1980 00:00:00 GMT"],
        ["Pragma", "no-cache"],
      ],
    });
  });
});
