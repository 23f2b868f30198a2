import { describe, expect, it } from "vitest";
import { analyzeText } from "./analyze-text.js";
import { stemToken } from "./stem.js";

describe("stemToken", () => {
  it("folds word forms with the Russian and English Snowball stemmers", () => {
    expect(stemToken("откатить")).toBe(stemToken("откат"));
    expect(stemToken("deploying")).toBe(stemToken("deploy"));
    expect(stemToken("deploys")).toBe("deploy");
    expect(analyzeText("развёртывание")).toEqual(analyzeText("развертывания"));
    expect(analyzeText("зелёная")).toEqual(analyzeText("зеленая"));
  });

  it("leaves other scripts, digits and mixed tokens as they are", () => {
    expect(stemToken("2024")).toBe("2024");
    expect(stemToken("中文")).toBe("中文");
    expect(stemToken("gitхук")).toBe("gitхук");
  });

  it("answers the same after its cache turns over", () => {
    const first = stemToken("migrations");
    for (let i = 0; i < 120_000; i++) stemToken(`w${i}`);
    expect(stemToken("migrations")).toBe(first);
  });
});

describe("analyzeText", () => {
  it("normalises, splits and stems", () => {
    expect(analyzeText("Как ОТКАТИТЬ релиз?")).toEqual(["как", "откат", "релиз"]);
    expect(analyzeText("Deploying pre-receive hooks")).toEqual(["deploy", "pre", "receiv", "hook"]);
  });
});
