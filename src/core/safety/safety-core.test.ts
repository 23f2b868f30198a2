import { describe, expect, it } from "vitest";
import { findHighEntropyAssignments, looksGenerated } from "./high-entropy-assignment.js";
import { isPlaceholderMatch } from "./placeholder-match.js";
import { lineOfIndex, secretDetected } from "./secret-finding.js";
import { shannonEntropy } from "./shannon-entropy.js";

describe("shannonEntropy", () => {
  it("is 0 for empty and one-letter strings, log2(n) for n distinct letters", () => {
    expect(shannonEntropy("")).toBe(0);
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBeCloseTo(2);
    expect(shannonEntropy("0123456789abcdef")).toBeCloseTo(4);
  });
});

describe("lineOfIndex", () => {
  it("counts lines from 1, a CRLF once", () => {
    expect(lineOfIndex("a\nb\r\nc", 0)).toBe(1);
    expect(lineOfIndex("a\nb\r\nc", 2)).toBe(2);
    expect(lineOfIndex("a\nb\r\nc", 5)).toBe(3);
  });
});

describe("high-entropy assignment", () => {
  it("spans the value only", () => {
    const text = `x\npassword = "Zq8#vL2!pW9@kR4t"\n`;
    const [span] = findHighEntropyAssignments(text);
    expect(text.slice(span?.start, span?.end)).toBe("Zq8#vL2!pW9@kR4t");
  });
  it("needs length, classes and entropy", () => {
    expect(looksGenerated("Zq8#vL2!pW9")).toBe(false); // 11 characters
    expect(looksGenerated("configuration")).toBe(false); // one class
    expect(looksGenerated("my-app-signing-key-name")).toBe(false); // joined words
    expect(looksGenerated("aaaaaaaaaaaa1A")).toBe(false); // low entropy
    expect(looksGenerated("Zq8#vL2!pW9@")).toBe(true);
  });
});

describe("placeholders and the refusal", () => {
  it("knows x-ed out matches", () => {
    expect(isPlaceholderMatch(`ghp_${"x".repeat(36)}`)).toBe(true);
    expect(isPlaceholderMatch("ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")).toBe(false);
  });
  it("secret_detected carries only line and rule", () => {
    const error = secretDetected({ line: 7, rule: "lore/stripe-key" });
    expect(error.code).toBe("secret_detected");
    expect(error.kind).toBe("invalid_input");
    expect(error.data).toEqual({ line: 7, rule: "lore/stripe-key" });
    expect(error.text.ru).toContain("строка 7");
  });
});
