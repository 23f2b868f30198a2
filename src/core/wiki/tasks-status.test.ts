import { describe, expect, it } from "vitest";
import { appendStatusRow, freshStatusMd, parseStatusMd, summarizeStatus } from "./tasks-status.js";

const sample = `# Tasks

Some prose before the board.

| slug | status | next | owner |
|------|:------:|------|-------|
| fix-login | in_progress | write the failing test | ann |
| docs | done | — | bob |
| \`cache\` | In progress | split \\| merge | |
| wait-api | blocked | ask infra | |
| rev | Review | read PR 12 | |
| new-one | todo | | |
`;

describe("parseStatusMd", () => {
  it("reads the board leniently: any column order, case, backticks, escaped pipes", () => {
    const parsed = parseStatusMd(sample);
    expect(parsed.problems).toEqual([]);
    expect(parsed.tasks).toEqual([
      { slug: "fix-login", status: "in_progress", next: "write the failing test" },
      { slug: "docs", status: "done", next: "—" },
      { slug: "cache", status: "in_progress", next: "split | merge" },
      { slug: "wait-api", status: "blocked", next: "ask infra" },
      { slug: "rev", status: "review", next: "read PR 12" },
      { slug: "new-one", status: "todo", next: "" },
    ]);
    const summary = summarizeStatus(parsed);
    expect(summary.all_tasks_count).toBe(6);
    expect(summary.active_tasks.map((t) => t.slug)).toEqual([
      "fix-login",
      "cache",
      "wait-api",
      "rev",
      "new-one",
    ]);
  });

  it("reports unknown statuses (counted active), empty slugs (skipped) and a missing table", () => {
    const parsed = parseStatusMd("| Status | Slug |\n|---|---|\n| someday | x |\n| todo |  |\r\n");
    expect(parsed.tasks).toEqual([{ slug: "x", status: "someday", next: "" }]);
    expect(parsed.problems.map((p) => [p.code, p.line])).toEqual([
      ["unknown_status", 3],
      ["empty_slug", 4],
    ]);
    expect(summarizeStatus(parsed).active_tasks).toHaveLength(1);
    expect(parseStatusMd("just prose").problems.map((p) => p.code)).toEqual(["no_table"]);
    expect(parseStatusMd("").tasks).toEqual([]);
  });
});

describe("appendStatusRow", () => {
  it("appends to the board in the table's own column order and reads back", () => {
    const out = appendStatusRow(sample, {
      slug: "write-kb",
      status: "todo",
      next: "describe X | Y",
    });
    expect(out).toContain("| new-one | todo | | |\n| write-kb | todo | describe X \\| Y |  |\n");
    expect(parseStatusMd(out).tasks.at(-1)).toEqual({
      slug: "write-kb",
      status: "todo",
      next: "describe X | Y",
    });
  });

  it("makes a fresh file, adds a table to prose, refuses duplicates and bad values", () => {
    const fresh = appendStatusRow("", { slug: "a", status: "todo", next: "go" });
    expect(fresh).toBe(`${freshStatusMd()}| a | todo | go |\n`);
    expect(
      parseStatusMd(
        appendStatusRow("# Board\n\nnothing yet\n", { slug: "b", status: "review", next: "" }),
      ).tasks,
    ).toEqual([{ slug: "b", status: "review", next: "" }]);
    expect(() => appendStatusRow(fresh, { slug: "a", status: "todo", next: "" })).toThrow(
      expect.objectContaining({ code: "invalid_input" }),
    );
    expect(() => appendStatusRow("", { slug: "a|b", status: "todo", next: "" })).toThrow();
    // @ts-expect-error an unknown status is refused at run time too
    expect(() => appendStatusRow("", { slug: "c", status: "someday", next: "" })).toThrow();
  });
});
