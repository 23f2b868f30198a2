import { describe, expect, it } from "vitest";
import { scanView } from "./scan-view.js";

describe("scanView", () => {
  it("leaves plain ASCII text as it is (the same string)", () => {
    const text = "line one\n  - a list item\nfinal: value\r\n";
    expect(scanView(text)).toBe(text);
  });

  it("drops format characters, folds full-width forms and quote markers, keeping every line", () => {
    const text = "a\u200bb\u00adc\ufeff\n> > quoted\n\uff47\uff48\uff50\n  >indented quote";
    const view = scanView(text);
    expect(view).toBe("abc\nquoted\nghp\nindented quote");
    expect(view.split("\n")).toHaveLength(text.split("\n").length);
  });
});
