import { describe, expect, it } from "vitest";
import { printRecall } from "./recall.js";

describe("printRecall", () => {
  it("marks a draft with its branch and leaves a file's line as it was", () => {
    const lines: string[] = [];
    const base = {
      kind: "entry" as const,
      source: "acme/app",
      repo: "acme/app",
      origin: "agent" as const,
      why: [{ kind: "text" as const }],
      score: 1,
    };
    printRecall(
      {
        hits: [
          { ...base, id: "a", path: ".gitriver/knowledge/a.md", summary: "File" },
          {
            ...base,
            id: "b",
            path: ".gitriver/knowledge/b.md",
            summary: "Draft",
            draft: true,
            branch: "feature/x",
          },
        ],
        total: 2,
        total_exact: true,
        next_cursor: null,
      },
      (line) => lines.push(line),
      "en",
    );
    expect(lines[1]).toBe("   a  entry acme/app  .gitriver/knowledge/a.md");
    expect(lines[4]).toBe(
      "   b  entry acme/app  .gitriver/knowledge/b.md  draft, branch feature/x",
    );
  });
});
