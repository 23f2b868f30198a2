import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo, type TestRepo } from "../helpers/make-repo.js";
import { makeTestLicenceKey } from "../helpers/test-licence.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID, UNREACHABLE_ID } from "./fixture-entries.js";
import { isolatedEnv, LORE_BIN, type LoreRun, runLore } from "./run-lore.js";

// `lore stats me|team|dead` from the built bin on this machine's index (seed 004
// "Интерфейс": the counters of recall and get, the table, --json, the Community refusal of
// the paid kinds, bad options).

let home: ReturnType<typeof isolatedEnv>;
let repo: TestRepo;

const lore = (args: readonly string[], env: Record<string, string> = {}): Promise<LoreRun> =>
  runLore(args, { cwd: repo.dir, env: { ...home.env, ...env } });

async function ok(args: readonly string[], env: Record<string, string> = {}): Promise<LoreRun> {
  const run = await lore(args, env);
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
}

beforeAll(async () => {
  home = isolatedEnv();
  repo = await makeRepo(knowledgeFiles());
  await ok(["index", repo.dir]);
}, 60_000);

afterAll(async () => {
  await repo?.cleanup();
  home?.cleanup();
});

describe("lore stats (local)", () => {
  it("me: the counts of lore recall and lore get, exactly, as JSON and as a table", async () => {
    const empty = JSON.parse((await ok(["stats", "me", "--json"])).stdout);
    expect(empty).toEqual({ items: [] });
    expect((await ok(["stats", "me"])).stdout).toBe(
      "no entry of this repository was shown to you or read by you yet\n",
    );
    await ok(["recall", "--tool", "run_migration"]);
    await ok(["recall", "--tool", "run_migration"]);
    await ok(["get", MIGRATION_ID]);
    const me = JSON.parse((await ok(["stats", "me", "--json"])).stdout);
    expect(me.partial).toBeUndefined();
    expect(me.items).toHaveLength(1);
    expect(me.items[0]).toMatchObject({
      id: MIGRATION_ID,
      path: ".gitriver/knowledge/migrations.md",
      summary: "Run production migrations with a lock timeout.",
      shown: 2,
      read: 1,
    });
    // Another user of this index has counters of their own.
    const other = JSON.parse((await ok(["stats", "me", "--json"], { LORE_USER: "olga" })).stdout);
    expect(other).toEqual({ items: [] });
    // The table: entry, summary, shown, read, last shown.
    const lines = (await ok(["stats", "me"])).stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ENTRY +SUMMARY +SHOWN +READ +LAST SHOWN$/);
    const shownAt = (me.items[0].last_shown_at as string).slice(0, 16).replace("T", " ");
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\.gitriver/knowledge/migrations\\.md +Run production migrations with a lock timeout\\. +2 +1 +${shownAt}Z$`,
      ),
    );
    // In Russian.
    const ru = (await ok(["stats", "me"], { LORE_LANG: "ru" })).stdout.split("\n")[0];
    expect(ru).toMatch(/^ЗАПИСЬ +СУТЬ +ПОКАЗАНО +ПРОЧТЕНО +ПОСЛЕДНИЙ ПОКАЗ$/);
    // --repo by folder, from elsewhere.
    const byFolder = await runLore(["stats", "me", "--repo", repo.dir, "--json"], {
      cwd: home.dir,
      env: home.env,
    });
    expect(byFolder.code).toBe(0);
    expect(JSON.parse(byFolder.stdout)).toEqual(me);
  });

  it("knowledge_stats of lore mcp over stdio answers the same as lore stats, and counts its own recall", async () => {
    const before = JSON.parse((await ok(["stats", "me", "--json"])).stdout);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [LORE_BIN, "mcp", "--repo", repo.dir],
      env: home.env,
      cwd: repo.dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "e2e-stats", version: "1" });
    await client.connect(transport);
    try {
      const first = await client.callTool({ name: "knowledge_stats", arguments: { kind: "me" } });
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toEqual(before);
      await client.callTool({ name: "knowledge_recall", arguments: { tool: "run_migration" } });
      const after = await client.callTool({ name: "knowledge_stats", arguments: { kind: "me" } });
      const rows = (after.structuredContent as { items: { id: string; shown: number }[] }).items;
      expect(rows.find((r) => r.id === MIGRATION_ID)?.shown).toBe(before.items[0].shown + 1);
      const team = await client.callTool({ name: "knowledge_stats", arguments: { kind: "team" } });
      expect(team.isError).toBe(true);
      expect(JSON.parse((team.content as { text: string }[])[0]?.text ?? "").error.code).toBe(
        "license_required",
      );
    } finally {
      await client.close();
    }
    // Written through at the end of the session: the CLI sees it.
    const cli = JSON.parse((await ok(["stats", "me", "--json"])).stdout);
    expect(cli.items[0].shown).toBe(before.items[0].shown + 1);
  });

  it("team and dead without a licence: license_required, exit 5", async () => {
    for (const kind of ["team", "dead"]) {
      const run = await lore(["stats", kind]);
      expect(run.code).toBe(5);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        kind === "team"
          ? /the team's stats need the pro edition.*\[license_required\]\n$/
          : /report needs the pro edition.*\[license_required\]\n$/,
      );
    }
  });

  it("refuses bad options with invalid_input, exit 2", async () => {
    for (const args of [
      ["stats"],
      ["stats", "all"],
      ["stats", "me", "extra"],
      ["stats", "me", "--min-shown", "3"],
      ["stats", "team", "--min-age-days", "3"],
      ["stats", "dead", "--min-shown", "0"],
      ["stats", "dead", "--min-shown", "x"],
      ["stats", "dead", "--min-age-days", "36501"],
    ]) {
      const run = await lore(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr, args.join(" ")).toMatch(/\[invalid_input\]\n$/);
    }
    const near = await lore(["stats", "mee"]);
    expect(near.stderr).toContain("did you mean “me”?");
    const missing = await runLore(["stats", "me", "--repo", "/nowhere/at/all"], {
      cwd: home.dir,
      env: home.env,
    });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/\[repo_not_indexed\]\n$/);
  });
});

describe("lore stats (local) with a Pro licence in [server] license", () => {
  it("team: every entry with everyone's counts, zeros for one never shown; dead: each ailment", async () => {
    const key = makeTestLicenceKey();
    writeFileSync(join(home.dir, "pro.json"), readFileSync(key.write({ edition: "pro" })));
    rmSync(key.dir, { recursive: true, force: true });
    const config = join(home.dir, "pro.toml");
    // Relative to the configuration file, like [server] data.
    writeFileSync(config, '[server]\nlicense = "pro.json"\n');
    const env = { LORE_CONFIG: config, ...key.env };
    await ok(["recall", "--tool", "run_migration"], { ...env, LORE_USER: "olga" });
    const team = JSON.parse((await ok(["stats", "team", "--json"], env)).stdout);
    expect(team.partial).toBeUndefined();
    expect(
      team.items.map((r: { id: string; shown: number; read: number }) => [r.id, r.shown, r.read]),
    ).toEqual([
      [ROLLBACK_ID, 0, 0],
      [MIGRATION_ID, 4, 1],
      [UNREACHABLE_ID, 0, 0],
    ]);
    const dead = await ok(["stats", "dead", "--min-age-days", "0", "--min-shown", "4"], env);
    const lines = dead.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ENTRY +SUMMARY +SHOWN +READ +LAST SHOWN +AILMENT$/);
    expect(lines.find((l) => l.includes("pre-receive.md"))).toMatch(
      / +never +unreachable \(on_path\)$/,
    );
    expect(lines.find((l) => l.includes("deploy-rollback.md"))).toMatch(/ +never +never_shown$/);
    // migrations.md was read: not dead.
    expect(lines.some((l) => l.includes("migrations.md"))).toBe(false);
    expect(lines.at(-1)).toBe("thresholds: min_shown 4, min_age_days 0");
    // A licence signed by an unknown key: license_invalid, exit 2.
    const wrong = await lore(["stats", "team"], { LORE_CONFIG: config });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/\[license_invalid\]\n$/);
    // me does not read the licence.
    expect((await lore(["stats", "me"], { LORE_CONFIG: config })).code).toBe(0);
  });
});
