/**
 * Parse on push with the real git client pushing to a real bare repository over the file
 * protocol (the hooks run and their output comes back as `remote:` lines), seed 004
 * "Разбор при отправке".
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { uuidV7Successor } from "../../src/core/entry/uuid7.js";
import {
  type HostedPush,
  makeHostedPush,
  recordedCommit,
  storedFiles,
} from "../helpers/hosted-push.js";
import { entry, ID_A, ID_B, ID_C, K, ON_PATH } from "../helpers/push-entries.js";

let hosted: HostedPush | undefined;
afterEach(async () => {
  await hosted?.cleanup();
  hosted = undefined;
});

describe("parse on push (file protocol, real git)", () => {
  it("reports a typo'd key, an unknown mechanism, an oversized file, a duplicate id and a non-UTF-8 name; the push goes through; the others are indexed", async () => {
    const big = entry(ID_C, "x".repeat(70_000));
    hosted = await makeHostedPush({
      [`${K}/a-typo.md`]: entry(ID_A, "Deploy with the blue-green switch.", ["sumary: Deploys"]),
      [`${K}/b-mechanism.md`]: ON_PATH,
      [`${K}/c-big.md`]: big,
      [`${K}/d-dup.md`]: entry(ID_A, "A copy of the typo entry, with another text."),
    });
    // caf\xE9.md: a Latin-1 name, not UTF-8.
    const latin1 = Buffer.concat([
      Buffer.from(join(hosted.work.dir, K, "caf")),
      Buffer.from([0xe9]),
      Buffer.from(".md"),
    ]);
    writeFileSync(latin1, entry("0190f5a4-3b2f-7e21-9b22-3c4d5e6f7083", "Café notes."));
    const head = await hosted.work.commit({}, "knowledge");
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("main -> main");
    expect(result.remote).toEqual([
      `${K}/a-typo.md:3:1: key “sumary” is not known, the nearest known is “summary” (sumary) [unknown_key]`,
      `${K}/b-mechanism.md:3:1: mechanism “on_path” is not known to this version; the entry is unreachable until it is (contract[0].mechanism) [unknown_mechanism]`,
      `${K}/c-big.md: the file is ${Buffer.byteLength(big)} bytes, over the 65536-byte limit; skipped [file_too_large]`,
      `${K}/caf\\xe9.md: the file name is not valid UTF-8 (shown with \\xNN escapes); rename the file [file_name_not_utf8]`,
      `${K}/d-dup.md: id ${ID_A} is already used by ${K}/a-typo.md; skipped (id) [duplicate_id]`,
      "1 entry needs mechanism “on_path”, which this version does not know",
    ]);
    // After the push: the default branch is indexed (post-receive), wrong files as skipped.
    const index = hosted.index();
    try {
      expect(index.repository("acme/app")?.commit).toBe(head);
      expect(index.getEntry(ID_A, "acme/app")?.path).toBe(`${K}/a-typo.md`);
      expect(index.getEntry(ID_B, "acme/app")?.path).toBe(`${K}/b-mechanism.md`);
      expect(index.getEntry(ID_C, "acme/app")).toBeUndefined();
      expect([...index.skippedReports("acme/app").keys()].sort()).toEqual([
        `${K}/c-big.md`,
        `${K}/caf\\xe9.md`,
        `${K}/d-dup.md`,
      ]);
    } finally {
      index.close();
    }
  });

  it("case 1: .gitriver/knowledge/ёжик.md is reported and indexed under exactly that path", async () => {
    hosted = await makeHostedPush({
      [`${K}/ёжик.md`]: entry(ID_A, "Ёжик в тумане.", ["sumary: Ёжик"]),
    });
    const result = await hosted.push(["main"]);
    expect(result.remote).toEqual([
      `${K}/ёжик.md:3:1: key “sumary” is not known, the nearest known is “summary” (sumary) [unknown_key]`,
    ]);
    expect([...storedFiles(hosted).keys()]).toEqual([`${K}/ёжик.md`]);
  });

  it("case 2: a report of 2,000 remarks reaches the pusher whole: 200 lines and … and 1800 more", async () => {
    const files: Record<string, string> = {};
    let id = ID_A;
    const names: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const name = `${K}/n${String(i).padStart(4, "0")}.md`;
      names.push(name);
      files[name] = entry(id, `Note ${i}.`, ["sumary: typo"]);
      id = uuidV7Successor(id);
    }
    hosted = await makeHostedPush(files);
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(0);
    expect(result.remote).toHaveLength(201);
    expect(result.remote.slice(0, 200)).toEqual(
      names
        .slice(0, 200)
        .map(
          (name) =>
            `${name}:3:1: key “sumary” is not known, the nearest known is “summary” (sumary) [unknown_key]`,
        ),
    );
    expect(result.remote[200]).toBe("… and 1800 more");
    expect(storedFiles(hosted).size).toBe(2000);
  });

  it("a feature branch is parsed and reported, not indexed; merged into main by a push it is", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    const first = await hosted.push(["main"]);
    expect(first.remote).toEqual([]);
    const mainHead = recordedCommit(hosted);
    await hosted.work.git(["checkout", "-q", "-b", "feature"]);
    await hosted.work.commit({
      [`${K}/b.md`]: entry(ID_B, "Roll back with helm.", ["on_trigers: x"]),
    });
    const feature = await hosted.push(["feature"]);
    expect(feature.exitCode).toBe(0);
    // A new branch is compared with the default branch: only b.md is parsed.
    expect(feature.remote).toEqual([
      `${K}/b.md:3:1: key “on_trigers” is not known, the nearest known is “contract” (on_trigers) [unknown_key]`,
    ]);
    expect(recordedCommit(hosted)).toBe(mainHead);
    expect([...storedFiles(hosted).keys()]).toEqual([`${K}/a.md`]);
    await hosted.work.git(["checkout", "-q", "main"]);
    await hosted.work.git(["merge", "-q", "--no-ff", "-m", "merge feature", "feature"]);
    const merged = await hosted.push(["main"]);
    expect(merged.remote).toEqual([
      `${K}/b.md:3:1: key “on_trigers” is not known, the nearest known is “contract” (on_trigers) [unknown_key]`,
    ]);
    expect([...storedFiles(hosted).keys()].sort()).toEqual([`${K}/a.md`, `${K}/b.md`]);
    expect(recordedCommit(hosted)).toBe((await hosted.work.git(["rev-parse", "HEAD"])).trim());
  });

  it("a deletion on main removes the entry; a rename keeps the entry at its new path", async () => {
    hosted = await makeHostedPush({
      [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays."),
      [`${K}/b.md`]: entry(ID_B, "Roll back with helm."),
    });
    await hosted.push(["main"]);
    await hosted.work.remove([`${K}/a.md`]);
    await hosted.work.rename(`${K}/b.md`, `${K}/rollback/b.md`);
    const result = await hosted.push(["main"]);
    expect(result.remote).toEqual([]);
    const index = hosted.index();
    try {
      expect(index.getEntry(ID_A, "acme/app")).toBeUndefined();
      expect(index.getEntry(ID_B, "acme/app")?.path).toBe(`${K}/rollback/b.md`);
      expect([...index.listFiles("acme/app").keys()]).toEqual([`${K}/rollback/b.md`]);
    } finally {
      index.close();
    }
  });

  it("a duplicate id is judged against the repository's other entries (already indexed)", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    await hosted.push(["main"]);
    await hosted.work.commit({ [`${K}/copy.md`]: entry(ID_A, "Another text, same id.") });
    const result = await hosted.push(["main"]);
    expect(result.remote).toEqual([
      `${K}/copy.md: id ${ID_A} is already used by ${K}/a.md; skipped (id) [duplicate_id]`,
    ]);
  });

  it("deleting the holder of an id on main gives it to the file skipped as its duplicate", async () => {
    hosted = await makeHostedPush({
      [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays."),
      [`${K}/copy.md`]: entry(ID_A, "Another text, same id."),
      [`${K}/other.md`]: entry(ID_B, "Roll back."),
    });
    const first = await hosted.push(["main"]);
    expect(first.remote).toEqual([
      `${K}/copy.md: id ${ID_A} is already used by ${K}/a.md; skipped (id) [duplicate_id]`,
    ]);
    await hosted.work.remove([`${K}/a.md`]);
    await hosted.push(["main"]);
    const index = hosted.index();
    try {
      expect(index.getEntry(ID_A, "acme/app")?.path).toBe(`${K}/copy.md`);
      expect(index.skippedReports("acme/app").size).toBe(0);
      expect([...index.listFiles("acme/app").keys()].sort()).toEqual([
        `${K}/copy.md`,
        `${K}/other.md`,
      ]);
    } finally {
      index.close();
    }
  });

  it("a failure of the index update is a line for the pusher and a line in <data>/logs/hooks.log; the push goes through", async () => {
    hosted = await makeHostedPush({ [`${K}/a.md`]: entry(ID_A, "Deploy on Tuesdays.") });
    // The index file the hooks were given cannot be opened (it is a folder).
    const broken = join(hosted.root, "broken.db");
    mkdirSync(broken);
    for (const hook of ["pre-receive", "post-receive"]) {
      const file = join(hosted.bare, "hooks", hook);
      const text = readFileSync(file, "utf8").replace(/^LORE_DB=.*$/m, `LORE_DB='${broken}'`);
      writeFileSync(file, text, { mode: 0o755 });
    }
    const result = await hosted.push(["main"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("main -> main");
    expect(result.remote).toHaveLength(1);
    expect(result.remote[0]).toMatch(
      /^lore: the index update failed, the push is accepted \(logged\): .+ \[index_failed\]$/,
    );
    const log = readFileSync(join(hosted.data, "logs", "hooks.log"), "utf8");
    expect(log).toMatch(/^\S+Z post-receive acme\/app: the index update: .+ \[index_failed\]\n$/);
  });
});
