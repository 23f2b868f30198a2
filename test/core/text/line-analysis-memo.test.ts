import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeText } from "../../../src/core/text/analyze-text.js";
import { analyzeJoined, LineAnalysisMemo } from "../../../src/core/text/line-analysis-memo.js";

const whole = (text: string) => analyzeText(text).join(" ");

/** Texts whose lines meet at the places normalisation and tokenising look at. */
const EDGES = [
  "",
  "\n",
  "\n\n\n",
  "one\ntwo",
  "one\n\ntwo\n",
  "Ёлка\nзелёная",
  // a combining mark just after a line break: it must not join the letter before the break
  "e\n\u0301x",
  "и\n\u0306",
  "и\u0306\nй",
  // Greek final sigma depends on the letters around it
  "ΟΔΟΣ\nΣΑΣ",
  "Σ\nΑ",
  "кэш\nэто\nтэг",
  "Café\r\nrésumé",
  "pre-\nreceive",
  "deploy's\n'quoted'",
  "emoji 😀\n😀emoji",
  "x\u200b\ny",
  "   \n\t\n  words  \n",
];

/** A fixed pseudo-random text made of characters that stress the analysis. */
function noise(seed: number, length: number): string {
  const pool = [
    ..."abcXYZ ёЁйЙэЭ\n\n\r\t-_'.",
    "\u0301",
    "\u0306",
    "\u0308",
    "Σ",
    "ß",
    "İ",
    "😀",
    "é",
    "деплой",
    "Releases",
  ];
  let state = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += pool[state % pool.length];
  }
  return out;
}

/** Up to `limit` markdown files of the shared corpus, or none when it is absent. */
function corpusTexts(limit: number): string[] {
  const root = join(process.cwd(), "..", "shared", "corpus");
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (out.length >= limit) return;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md") || name.endsWith(".mdc")) out.push(readFileSync(path, "utf8"));
    }
  };
  walk(root);
  return out;
}

describe("LineAnalysisMemo", () => {
  it("gives exactly the whole text's analysis on edge cases", () => {
    for (const text of EDGES) {
      expect(new LineAnalysisMemo().analyzeJoined(text), JSON.stringify(text)).toBe(whole(text));
    }
  });

  it("gives exactly the whole text's analysis on random text, memo shared across texts", () => {
    const memo = new LineAnalysisMemo();
    for (let seed = 1; seed <= 300; seed++) {
      const text = noise(seed, 40 + (seed % 7) * 30);
      expect(memo.analyzeJoined(text), JSON.stringify(text)).toBe(whole(text));
      // the same text again, now from the memo
      expect(memo.analyzeJoined(text)).toBe(whole(text));
    }
  });

  it("gives the same analysis of an old and a new version of real files", (context) => {
    const texts = corpusTexts(200);
    if (texts.length === 0) {
      context.skip("../shared/corpus is absent: real files not checked");
      return;
    }
    for (const text of texts) {
      const memo = new LineAnalysisMemo();
      const changed = `${text}\nOne more line, with words: deploy релиз.\n`;
      expect(memo.analyzeJoined(text)).toBe(whole(text));
      expect(memo.analyzeJoined(changed)).toBe(whole(changed));
    }
  });

  it("analyses without a memo when none is given", () => {
    expect(analyzeJoined("Deploy\nрелизы")).toBe(whole("Deploy\nрелизы"));
    expect(analyzeJoined("Deploy\nрелизы", new LineAnalysisMemo())).toBe(whole("Deploy\nрелизы"));
  });
});
