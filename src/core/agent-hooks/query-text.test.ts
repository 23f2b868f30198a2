import { describe, expect, it } from "vitest";
import { cutUtf8, toolInputText } from "./query-text.js";

describe("toolInputText", () => {
  it("flattens the values of an object, depth first, without its keys", () => {
    expect(
      toolInputText({
        command: "helm rollback web",
        opts: { n: 41, dry: false },
        list: ["a", "b"],
      }),
    ).toBe("helm rollback web 41 false a b");
  });

  it("reads a string holding JSON (Cursor's tool_input) as that JSON, other strings as they are", () => {
    expect(toolInputText('{"query": "SELECT 1"}')).toBe("SELECT 1");
    expect(toolInputText("make deploy")).toBe("make deploy");
    expect(toolInputText(null)).toBe("");
  });

  it("stops at the byte bound", () => {
    const text = toolInputText({ a: "x".repeat(5000), b: "never" }, 100);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(100);
    expect(text).not.toContain("never");
  });
});

describe("cutUtf8", () => {
  it("cuts on a character boundary", () => {
    const cut = cutUtf8("ёёё", 3);
    expect(cut).toBe("ё");
    expect(cutUtf8("short", 100)).toBe("short");
  });
});
