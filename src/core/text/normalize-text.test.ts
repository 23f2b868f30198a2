import { describe, expect, it } from "vitest";
import { normalizeText } from "./normalize-text.js";

describe("normalizeText", () => {
  it("lower-cases Latin and Cyrillic and folds ё to е", () => {
    expect(normalizeText("Ёлка зелёная стоит у ДОМА")).toBe("елка зеленая стоит у дома");
    expect(normalizeText("ЁЖ Ёж ёж")).toBe("еж еж еж");
    expect(normalizeText("Deploy PRE-RECEIVE")).toBe("deploy pre-receive");
  });

  it("strips Latin diacritics but never folds й to и", () => {
    expect(normalizeText("Café résumé naïve Ångström")).toBe("cafe resume naive angstrom");
    expect(normalizeText("йод Йогурт")).toBe("йод йогурт");
    // decomposed й (и + breve) composes to й and stays й
    expect(normalizeText("и\u0306")).toBe("й");
  });

  it("composes to NFC", () => {
    expect(normalizeText("e\u0301")).toBe("e");
    expect(normalizeText("е\u0308")).toBe("е");
    expect(normalizeText("x").normalize("NFC")).toBe("x");
  });

  it("is locale-independent for dotted capital I", () => {
    expect(normalizeText("İstanbul")).toBe("istanbul");
  });
});
