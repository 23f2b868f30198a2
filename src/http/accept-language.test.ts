import { describe, expect, it } from "vitest";
import { pickAcceptLanguage } from "./accept-language.js";

describe("pickAcceptLanguage", () => {
  it("takes the best-weighted of en and ru, en by default", () => {
    expect(pickAcceptLanguage(undefined)).toBe("en");
    expect(pickAcceptLanguage("")).toBe("en");
    expect(pickAcceptLanguage("ru")).toBe("ru");
    expect(pickAcceptLanguage("ru-RU,ru;q=0.9")).toBe("ru");
    expect(pickAcceptLanguage("en;q=0.5, ru;q=0.8")).toBe("ru");
    expect(pickAcceptLanguage("ru;q=0.3, en;q=0.8")).toBe("en");
    expect(pickAcceptLanguage("de, fr;q=0.9")).toBe("en");
    expect(pickAcceptLanguage("de, ru;q=0.1")).toBe("ru");
    expect(pickAcceptLanguage("ru;q=0, en;q=0.1")).toBe("en");
    expect(pickAcceptLanguage("ru;q=0")).toBe("en");
    expect(pickAcceptLanguage("ru;q=abc")).toBe("en");
    expect(pickAcceptLanguage("ru, en")).toBe("ru");
    expect(pickAcceptLanguage("*;q=0.5, ru;q=0.6")).toBe("ru");
  });
});
