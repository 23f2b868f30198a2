import { describe, expect, it } from "vitest";
import { escapeFileName, escapeNameText, isUtf8Name, unsafeNameCharacter } from "./file-name.js";

const bytes = (...values: number[]) => new Uint8Array(values);

describe("escapeFileName", () => {
  it("shows bytes that are not UTF-8 as \\xNN, valid text as it is", () => {
    expect(escapeFileName(bytes(0x63, 0x61, 0x66, 0xe9, 0x2e, 0x6d, 0x64))).toBe("caf\\xe9.md");
    expect(escapeFileName(new TextEncoder().encode("кафе.md"))).toBe("кафе.md");
    // A truncated sequence, a surrogate (ED A0 80), an overlong form (C0 AF).
    expect(escapeFileName(bytes(0xd0))).toBe("\\xd0");
    expect(escapeFileName(bytes(0xed, 0xa0, 0x80))).toBe("\\xed\\xa0\\x80");
    expect(escapeFileName(bytes(0xc0, 0xaf))).toBe("\\xc0\\xaf");
  });

  it("escapes control characters and the backslash, so two names never look alike", () => {
    expect(escapeFileName(bytes(0x61, 0x0a, 0x62))).toBe("a\\x0ab");
    expect(escapeFileName(new TextEncoder().encode("a\\xe9"))).toBe("a\\\\xe9");
  });

  it("isUtf8Name", () => {
    expect(isUtf8Name(new TextEncoder().encode("ok.md"))).toBe(true);
    expect(isUtf8Name(bytes(0x63, 0xe9))).toBe(false);
  });
});

describe("unsafeNameCharacter", () => {
  it("finds newlines, control characters and bidi formatting characters", () => {
    expect(unsafeNameCharacter("a\nb")).toEqual({ codePoint: "U+000A", kind: "newline" });
    expect(unsafeNameCharacter("a\u2029")).toEqual({ codePoint: "U+2029", kind: "newline" });
    expect(unsafeNameCharacter("a\u0000")).toEqual({ codePoint: "U+0000", kind: "control" });
    expect(unsafeNameCharacter("a\u009b")).toEqual({ codePoint: "U+009B", kind: "control" });
    expect(unsafeNameCharacter("evil\u202Egnp.md")).toEqual({ codePoint: "U+202E", kind: "bidi" });
    expect(unsafeNameCharacter("\u061C")).toEqual({ codePoint: "U+061C", kind: "bidi" });
    expect(unsafeNameCharacter("заметки/план 2024.md")).toBeUndefined();
    expect(unsafeNameCharacter("emoji 🧠.md")).toBeUndefined();
  });

  it("escapeNameText turns each such character into \\uXXXX", () => {
    expect(escapeNameText("a\n\u202Eb.md")).toBe("a\\u000A\\u202Eb.md");
  });
});
