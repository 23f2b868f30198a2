import { describe, expect, it } from "vitest";
import { decideBranchPush, matchBranchPattern } from "./branch-protection.js";
import { hookReadEnvironment, withoutRepositoryLocation } from "./hook-environment.js";
import { FAIL_CLOSED_LINE, hookScript, shellQuote } from "./hook-script.js";
import { parseDiffTreeRaw } from "./knowledge-changes.js";
import { branchOf, parseRefUpdates } from "./ref-update.js";
import { capReport } from "./report-cap.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const Z = "0".repeat(40);
const K = ".gitriver/knowledge/";

describe("parseRefUpdates", () => {
  it("reads git's lines, zero names as null, and skips odd lines", () => {
    expect(
      parseRefUpdates(
        `${A} ${B} refs/heads/main\n${Z} ${B} refs/heads/new\n${A} ${Z} refs/tags/v1\nnonsense\n`,
      ),
    ).toEqual([
      { oldSha: A, newSha: B, ref: "refs/heads/main" },
      { oldSha: null, newSha: B, ref: "refs/heads/new" },
      { oldSha: A, newSha: null, ref: "refs/tags/v1" },
    ]);
    expect(branchOf("refs/heads/feature/x")).toBe("feature/x");
    expect(branchOf("refs/tags/v1")).toBeUndefined();
  });
});

describe("capReport", () => {
  it("keeps 200 of 2,000 lines and ends with … and 1800 more", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
    const capped = capReport(lines, "en");
    expect(capped).toHaveLength(201);
    expect(capped[199]).toBe("line 199");
    expect(capped[200]).toBe("… and 1800 more");
    expect(capReport(lines, "ru")[200]).toBe("… и ещё 1800");
    expect(capReport(lines.slice(0, 200), "en")).toEqual(lines.slice(0, 200));
  });
});

describe("parseDiffTreeRaw", () => {
  it("tells additions, changes, deletions and renames, keeps only entry files, escapes a non-UTF-8 name", () => {
    const raw = [
      `:000000 100644 ${Z} ${A} A`,
      `${K}new.md`,
      `:100644 100644 ${A} ${B} M`,
      `${K}ёжик.md`,
      `:100644 000000 ${A} ${Z} D`,
      `${K}gone.md`,
      `:100644 100644 ${A} ${A} R100`,
      `${K}old.md`,
      `${K}sub/moved.md`,
      `:100644 100644 ${A} ${A} R100`,
      `${K}out.md`,
      "docs/out.md",
      `:000000 120000 ${Z} ${B} A`,
      `${K}link.md`,
      `:000000 100644 ${Z} ${B} A`,
      `${K}notes.txt`,
      `:000000 100644 ${Z} ${B} A`,
      `${K}caf\u00e9.md`,
      "",
    ].join("\0");
    // The input is git's bytes read as latin1: UTF-8 names come as their bytes.
    const latin1 = Buffer.from(raw.replace("caf\u00e9", "caf\u0000"), "utf8")
      .toString("latin1")
      .replace("caf\u0000", "caf\u00e9");
    expect(parseDiffTreeRaw(latin1, K)).toEqual([
      { kind: "added", path: `${K}new.md`, sha: A },
      { kind: "modified", path: `${K}ёжик.md`, sha: B },
      { kind: "deleted", path: `${K}gone.md`, sha: null },
      { kind: "renamed", path: `${K}sub/moved.md`, oldPath: `${K}old.md`, sha: A },
      { kind: "deleted", path: `${K}out.md`, sha: null },
      {
        kind: "added",
        path: `${K}caf\\xe9.md`,
        sha: B,
        refused: expect.objectContaining({ code: "file_name_not_utf8" }),
      },
    ]);
  });
});

describe("branch protection", () => {
  it("matches globs by path segment", () => {
    expect(matchBranchPattern("main", "main")).toBe(true);
    expect(matchBranchPattern("release/*", "release/1.0")).toBe(true);
    expect(matchBranchPattern("release/*", "release/1.0/hotfix")).toBe(false);
    expect(matchBranchPattern("release/**", "release/1.0/hotfix")).toBe(true);
    expect(matchBranchPattern("v?.x", "v1.x")).toBe(true);
    expect(matchBranchPattern("main", "mainline")).toBe(false);
    expect(matchBranchPattern("a.b", "axb")).toBe(false);
  });

  it("admits listed users and groups, refuses force pushes and deletions unless allowed", () => {
    const rule = { pattern: "main", pushUserIds: [1], pushGroupIds: [9], allowForcePush: false };
    const push = { branch: "main", force: false, deletion: false };
    const anna = { name: "anna", userId: 1, groupIds: [] };
    const bob = { name: "bob", userId: 2, groupIds: [] };
    const carl = { name: "carl", userId: 3, groupIds: [9] };
    expect(decideBranchPush([rule], push, anna)).toBeUndefined();
    expect(decideBranchPush([rule], push, carl)).toBeUndefined();
    expect(decideBranchPush([rule], push, bob)?.why).toBe("not_allowed");
    expect(decideBranchPush([rule], push, undefined)?.why).toBe("not_allowed");
    expect(decideBranchPush([rule], { ...push, force: true }, anna)?.why).toBe("force_push");
    expect(decideBranchPush([rule], { ...push, deletion: true, force: true }, anna)?.why).toBe(
      "deletion",
    );
    expect(
      decideBranchPush([{ ...rule, allowForcePush: true }], { ...push, force: true }, anna),
    ).toBeUndefined();
    expect(decideBranchPush([rule], { ...push, branch: "feature" }, bob)).toBeUndefined();
    const open = { pattern: "main", pushUserIds: [], pushGroupIds: [], allowForcePush: false };
    expect(decideBranchPush([open], push, undefined)).toBeUndefined();
  });
});

describe("hook environment and script", () => {
  it("keeps the quarantine variables for the hook's own repository, drops location variables otherwise", () => {
    const env = {
      GIT_DIR: ".",
      GIT_QUARANTINE_PATH: "/r/objects/incoming-1",
      GIT_OBJECT_DIRECTORY: "/r/objects/incoming-1",
      GIT_ALTERNATE_OBJECT_DIRECTORIES: "/r/objects",
      PATH: "/usr/bin",
    };
    expect(hookReadEnvironment(env)).toEqual({
      GIT_QUARANTINE_PATH: "/r/objects/incoming-1",
      GIT_OBJECT_DIRECTORY: "/r/objects/incoming-1",
      GIT_ALTERNATE_OBJECT_DIRECTORIES: "/r/objects",
    });
    expect(withoutRepositoryLocation(env)).toEqual({ PATH: "/usr/bin" });
  });

  it("embeds absolute paths, quoted for sh", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    const text = hookScript("pre-receive", {
      node: "/usr/bin/node",
      main: "/opt/lore/dist/cli/main.js",
      database: "/var/lore/index.db",
      data: "/var/lore/server",
      config: null,
    });
    expect(text).toBe(
      [
        "#!/bin/sh",
        "# lore-hook: parse on push (written by `lore hook install`)",
        "LORE_DB='/var/lore/index.db'",
        "LORE_CONFIG=''",
        "export LORE_DB LORE_CONFIG",
        "lore_refuse_unchecked() {",
        `  if [ -f "\${GIT_DIR:-.}/lore-protected" ]; then`,
        `    case "\${LORE_PUSHER_LANG:-\${LORE_LANG:-}}" in`,
        `      ru*) echo '${FAIL_CLOSED_LINE.ru}' >&2 ;;`,
        `      *) echo '${FAIL_CLOSED_LINE.en}' >&2 ;;`,
        "    esac",
        "    exit 1",
        "  fi",
        "}",
        "if [ -x '/usr/bin/node' ] && [ -f '/opt/lore/dist/cli/main.js' ]; then",
        "  '/usr/bin/node' '/opt/lore/dist/cli/main.js' hook pre-receive --data '/var/lore/server'",
        "  lore_status=$?",
        '  [ "$lore_status" -eq 5 ] && exit 1',
        '  [ "$lore_status" -eq 0 ] && exit 0',
        "  lore_refuse_unchecked",
        "  exit 0",
        "fi",
        "lore_refuse_unchecked",
        'echo "lore: pre-receive: node or Lore is not at the path this hook was written with; the push is accepted without the parse (run lore hook install again)" >&2',
        "exit 0",
        "",
      ].join("\n"),
    );
    expect(FAIL_CLOSED_LINE.en).toMatch(/\[branch_protected\]$/);
    expect(FAIL_CLOSED_LINE.ru).toMatch(/\[branch_protected\]$/);
    expect(`${FAIL_CLOSED_LINE.en}${FAIL_CLOSED_LINE.ru}`).not.toContain("'");
  });

  it("post-receive never refuses: no protection check in its script", () => {
    const text = hookScript("post-receive", {
      node: "/usr/bin/node",
      main: "/opt/lore/dist/cli/main.js",
      database: "/var/lore/index.db",
      data: "/var/lore/server",
      config: null,
    });
    expect(text).not.toContain("lore-protected");
    expect(text).not.toContain("exit 1");
  });
});
