import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestLicenceKey } from "../helpers/test-licence.js";
import { knowledgeFiles, MIGRATION_ID, ROLLBACK_ID, UNREACHABLE_ID } from "./fixture-entries.js";
import { pushFilesOverHttp } from "./git-client.js";
import { isolatedEnv, type LoreRun, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// `knowledge_stats` over a real team server's /mcp and `lore stats` with `[server] url`
// (seed 004 "Интерфейс": stats/me|team|dead): `lore serve` from the built bin with a Pro
// licence (a test key), a hosted repository filled by the real git client, tokens, then
// the same server with no licence (Community): the paid kinds refused whole, even for a
// repository the caller cannot see.

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let clientEnv: Record<string, string>;
let licenceFile = "";
const tokens: Record<string, string> = {};
const SCOPES = "knowledge:read,knowledge:write,repo:read,repo:write";

const base = () => `${served.url.protocol}//${served.url.host}`;

async function admin(args: readonly string[]): Promise<LoreRun> {
  const run = await runLore(args, { cwd: home.dir, env: home.env });
  if (run.code !== 0) throw new Error(`lore ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  return run;
}

/** `lore` as anna's machine runs it: `[server] url` and her token. */
const client = (args: readonly string[], cwd = home.dir): Promise<LoreRun> =>
  runLore(args, { cwd, env: clientEnv });

async function mcpAs(who: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(served.url, {
    requestInit: { headers: { authorization: `Bearer ${tokens[who]}` } },
  });
  const mcp = new Client({ name: "test", version: "1" });
  await mcp.connect(transport);
  return mcp;
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join("");
}

/** Writes the server's configuration: with or without the licence. */
function serverConfig(withLicence: boolean): void {
  const dir = join(home.env.XDG_CONFIG_HOME as string, "lore");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "lore.toml"),
    withLicence ? `[server]\nlicense = "${licenceFile}"\n` : "[server]\n",
  );
}

async function restart(withLicence: boolean): Promise<void> {
  await served?.stop();
  serverConfig(withLicence);
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
  // The client follows the server to its new port.
  writeFileSync(join(home.dir, "client.toml"), `[server]\nurl = "${base()}"\n`);
}

beforeAll(async () => {
  const key = makeTestLicenceKey();
  home = isolatedEnv(key.env);
  licenceFile = join(home.dir, "licence.json");
  writeFileSync(licenceFile, readFileSync(key.write({ edition: "pro" })));
  rmSync(key.dir, { recursive: true, force: true });
  await restart(true);
  await admin(["repo", "create", "acme/app"]);
  await admin(["repo", "create", "acme/hidden"]);
  for (const user of ["anna", "boris"]) {
    await admin(["user", "add", user]);
    tokens[user] = (await admin(["token", "create", user, "--scopes", SCOPES])).stdout.trim();
    await admin(["access", "grant", user, "acme/app", "write"]);
  }
  const clientConfig = join(home.dir, "client.toml");
  clientEnv = { ...home.env, LORE_CONFIG: clientConfig, LORE_TOKEN: tokens.anna as string };
  // The entries, pushed by anna with the real git client over smart HTTP.
  await pushFilesOverHttp(home, knowledgeFiles(), `${base()}/acme/app.git`, tokens.anna as string);
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

describe("stats on a team server with a Pro licence", () => {
  it("knowledge_stats over /mcp: my counts of recall and open, exactly; team with zeros; dead; nothing of a hidden repository", async () => {
    const anna = await mcpAs("anna");
    try {
      for (let i = 0; i < 2; i++) {
        const hits = await anna.callTool({
          name: "knowledge_recall",
          arguments: { tool: "run_migration" },
        });
        expect((hits.structuredContent as { hits: { id: string }[] }).hits[0]?.id).toBe(
          MIGRATION_ID,
        );
      }
      // count_shown false: listed, not counted.
      await anna.callTool({
        name: "knowledge_recall",
        arguments: { tool: "run_migration", count_shown: false },
      });
      const opened = await anna.callTool({
        name: "knowledge_open",
        arguments: { id: MIGRATION_ID },
      });
      expect(opened.isError).toBeFalsy();
      const me = await anna.callTool({
        name: "knowledge_stats",
        arguments: { kind: "me", repo: "acme/app" },
      });
      expect(me.isError, textOf(me)).toBeFalsy();
      const mine = me.structuredContent as { items: Record<string, unknown>[] };
      expect(mine.items).toHaveLength(1);
      expect(mine.items[0]).toMatchObject({ id: MIGRATION_ID, shown: 2, read: 1 });

      const team = await anna.callTool({
        name: "knowledge_stats",
        arguments: { kind: "team", repo: "acme/app" },
      });
      expect(team.isError, textOf(team)).toBeFalsy();
      expect(
        (
          team.structuredContent as { items: { id: string; shown: number; read: number }[] }
        ).items.map((r) => [r.id, r.shown, r.read]),
      ).toEqual([
        [ROLLBACK_ID, 0, 0],
        [MIGRATION_ID, 2, 1],
        [UNREACHABLE_ID, 0, 0],
      ]);

      const dead = await anna.callTool({
        name: "knowledge_stats",
        arguments: { kind: "dead", repo: "acme/app", min_age_days: 0 },
      });
      expect(dead.isError, textOf(dead)).toBeFalsy();
      const report = dead.structuredContent as {
        items: { id: string; ailment: string }[];
        min_shown: number;
        min_age_days: number;
      };
      expect(report).toMatchObject({ min_shown: 10, min_age_days: 0 });
      expect(new Map(report.items.map((r) => [r.id, r.ailment]))).toEqual(
        new Map([
          [UNREACHABLE_ID, "unreachable"],
          [ROLLBACK_ID, "never_shown"],
        ]),
      );

      // A repository anna cannot read: repo_not_found, as a missing one; no repo: invalid_input.
      for (const kind of ["me", "team", "dead"]) {
        const hidden = await anna.callTool({
          name: "knowledge_stats",
          arguments: { kind, repo: "acme/hidden" },
        });
        expect(hidden.isError).toBe(true);
        expect(JSON.parse(textOf(hidden)).error.code).toBe("repo_not_found");
        expect(textOf(hidden)).not.toContain("items");
      }
      const noRepo = await anna.callTool({ name: "knowledge_stats", arguments: { kind: "me" } });
      expect(JSON.parse(textOf(noRepo)).error.code).toBe("invalid_input");
    } finally {
      await anna.close();
    }
    // Boris's own counters are his: none yet.
    const boris = await mcpAs("boris");
    try {
      const me = await boris.callTool({
        name: "knowledge_stats",
        arguments: { kind: "me", repo: "acme/app" },
      });
      expect(me.structuredContent).toEqual({ items: [] });
    } finally {
      await boris.close();
    }
  });

  it("lore stats with [server] url: the server's answers, as JSON and as a table", async () => {
    const me = await client(["stats", "me", "--repo", "acme/app", "--json"]);
    expect(me.code, me.stderr).toBe(0);
    const mine = JSON.parse(me.stdout);
    expect(mine.items).toHaveLength(1);
    expect(mine.items[0]).toMatchObject({ id: MIGRATION_ID, shown: 2, read: 1 });

    const team = await client(["stats", "team", "--repo", "acme/app"]);
    expect(team.code, team.stderr).toBe(0);
    const lines = team.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ENTRY +SUMMARY +SHOWN +READ +LAST SHOWN$/);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(
      /^\.gitriver\/knowledge\/migrations\.md +Run production .* +2 +1 +\d{4}-/,
    );
    expect(lines[1]).toMatch(/ +0 +0 +never$/);

    const dead = await client([
      "stats",
      "dead",
      "--repo",
      "acme/app",
      "--min-shown",
      "2",
      "--min-age-days",
      "0",
    ]);
    expect(dead.code, dead.stderr).toBe(0);
    const deadLines = dead.stdout.trimEnd().split("\n");
    expect(deadLines[0]).toMatch(/^ENTRY +SUMMARY +SHOWN +READ +LAST SHOWN +AILMENT$/);
    expect(deadLines.find((l) => l.includes("pre-receive.md"))).toMatch(/unreachable \(on_path\)$/);
    expect(deadLines.find((l) => l.includes("deploy-rollback.md"))).toMatch(/never_shown$/);
    expect(deadLines.at(-1)).toBe("thresholds: min_shown 2, min_age_days 0");

    // The repository from the origin remote when it is on the server.
    const fromClone = await client(["stats", "me", "--json"], join(home.dir, "work"));
    expect(fromClone.code, fromClone.stderr).toBe(0);
    expect(JSON.parse(fromClone.stdout)).toEqual(mine);

    const hidden = await client(["stats", "me", "--repo", "acme/hidden"]);
    expect(hidden.code).toBe(3);
    expect(hidden.stderr).toMatch(/\[repo_not_found\]\n$/);
    const noRepo = await client(["stats", "me"]);
    expect(noRepo.code).toBe(2);
    expect(noRepo.stderr).toMatch(/pass --repo owner\/name.*\[invalid_input\]\n$/);
    const bad = await client(["stats", "me", "--repo", "app"]);
    expect(bad.code).toBe(2);
    // A name no hosted repository can have is refused before any request (no path tricks).
    for (const name of ["acme/..", "../admin"]) {
      const dots = await client(["stats", "me", "--repo", name]);
      expect(dots.code, name).toBe(2);
      expect(dots.stderr, name).toMatch(/\[invalid_repo_name\]\n$/);
    }
  });

  it("Community (no licence): team and dead refused whole with license_required, even on a hidden repository; me served", async () => {
    await restart(false);
    for (const kind of ["team", "dead"]) {
      for (const repo of ["acme/app", "acme/hidden", "acme/missing"]) {
        const run = await client(["stats", kind, "--repo", repo]);
        expect(run.code, `${kind} ${repo}`).toBe(5);
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(
          kind === "team"
            ? /the team's stats need the pro edition.*\[license_required\]\n$/
            : /report needs the pro edition.*\[license_required\]\n$/,
        );
      }
    }
    const anna = await mcpAs("anna");
    try {
      const team = await anna.callTool({
        name: "knowledge_stats",
        arguments: { kind: "team", repo: "acme/hidden" },
      });
      expect(team.isError).toBe(true);
      const error = JSON.parse(textOf(team)).error;
      expect(error.code).toBe("license_required");
      expect(error.data).toMatchObject({ feature: "stats_team", edition: "community" });
      // stats/me stays free, and holds only anna's own counts.
      const me = await anna.callTool({
        name: "knowledge_stats",
        arguments: { kind: "me", repo: "acme/app" },
      });
      expect(me.isError, textOf(me)).toBeFalsy();
      expect((me.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      await anna.close();
    }
    const me = await client(["stats", "me", "--repo", "acme/app", "--json"]);
    expect(me.code, me.stderr).toBe(0);
  }, 60_000);
});
