/**
 * The team server keeps its own index in its data folder (`main/server-index-file.ts`):
 * two `lore serve` with their own data folders on one OS user's machine — the second one a
 * "fresh server" of the README's administration section — each host an `acme/app` and
 * answer with their own entries only; the OS user's own index (`lore repos`) holds neither.
 * An index file named for both (`LORE_DB`) is refused to the second server with
 * `index_of_another_server` (exit 4) rather than mixing their repositories.
 */
import { cpSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entry, K } from "../helpers/push-entries.js";
import { pushFilesOverHttp } from "./git-client.js";
import { isolatedEnv, runLore } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

const ID_A = "0190f5a4-3b2c-7d10-8a11-0000000000a1";
const ID_B = "0190f5a4-3b2c-7d10-8a11-0000000000b1";

let home: ReturnType<typeof isolatedEnv>;
let env: Record<string, string>;
let bEnv: Record<string, string>;
let bData: string;
const servers: ServedLore[] = [];

const base = (served: ServedLore) => `${served.url.protocol}//${served.url.host}`;

async function listed(served: ServedLore): Promise<string[]> {
  const answer = await fetch(`${base(served)}/api/v1/repos/acme/app/knowledge`, {
    headers: served.headers,
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { items: { id: string }[] }).items.map((item) => item.id);
}

beforeAll(async () => {
  home = isolatedEnv();
  // No index file named: the servers choose theirs.
  const { LORE_DB: _named, ...rest } = home.env;
  env = rest;
  bData = join(home.dir, "b-data");
  const bConfig = join(home.dir, "b.toml");
  writeFileSync(bConfig, `[server]\ndata = ${JSON.stringify(bData)}\n`);
  bEnv = { ...env, LORE_CONFIG: bConfig };
  servers.push(await startServe(["--port", "0"], { cwd: home.dir, env }));
  servers.push(await startServe(["--port", "0"], { cwd: home.dir, env: bEnv, data: bData }));
  for (const [at, runEnv, id] of [
    [0, env, ID_A],
    [1, bEnv, ID_B],
  ] as const) {
    const created = await runLore(["repo", "create", "acme/app"], { cwd: home.dir, env: runEnv });
    expect(created.code).toBe(0);
    const served = servers[at] as ServedLore;
    const pusher = { env: runEnv, dir: join(home.dir, `pusher-${at}`) };
    mkdirSync(pusher.dir, { recursive: true });
    await pushFilesOverHttp(
      pusher,
      { [`${K}/${id}.md`]: entry(id, `Server ${at} knowledge.`) },
      `${base(served)}/acme/app.git`,
      served.token,
    );
  }
}, 120_000);

afterAll(async () => {
  for (const served of servers) await served.stop();
  home?.cleanup();
});

describe("the team server's own index", () => {
  it("two servers with their own data folders answer with their own acme/app only", async () => {
    expect(await listed(servers[0] as ServedLore)).toEqual([ID_A]);
    expect(await listed(servers[1] as ServedLore)).toEqual([ID_B]);
    expect(existsSync(join(home.dir, "data", "lore", "server", "index.db"))).toBe(true);
    expect(existsSync(join(bData, "index.db"))).toBe(true);
  });

  it("the OS user's own index holds no hosted repository", async () => {
    const repos = await runLore(["repos", "--json"], { cwd: home.dir, env });
    expect(repos.code).toBe(0);
    const names = (JSON.parse(repos.stdout) as { repos: { repo: string }[] }).repos.map(
      (r) => r.repo,
    );
    expect(names).not.toContain("acme/app");
  });

  it("an index file named for two data folders is refused to the second server", async () => {
    const shared = join(home.dir, "data", "lore", "server", "index.db");
    const refused = await runLore(["serve", "--port", "0", "--ssh-port", "0"], {
      cwd: home.dir,
      env: { ...bEnv, LORE_DB: shared },
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("[index_of_another_server]");
    expect(refused.stderr).toContain(bData);
    // Nothing of the second server reached the first one's index.
    expect(await listed(servers[0] as ServedLore)).toEqual([ID_A]);
  });

  it("the data folder is 0700 and its index file 0600: it holds the private repositories' entries", () => {
    const data = join(home.dir, "data", "lore", "server");
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(join(data, "index.db")).mode & 0o777).toBe(0o600);
    expect(statSync(join(bData, "index.db")).mode & 0o777).toBe(0o600);
  });

  it("a copy of a data folder starts on its own index, taken over from the copied one", async () => {
    const copy = join(home.dir, "copy-data");
    cpSync(bData, copy, { recursive: true });
    const config = join(home.dir, "copy.toml");
    writeFileSync(config, `[server]\ndata = ${JSON.stringify(copy)}\n`);
    const served = await startServe(["--port", "0"], {
      cwd: home.dir,
      env: { ...env, LORE_CONFIG: config },
      data: copy,
    });
    try {
      expect(await listed(served)).toEqual([ID_B]);
    } finally {
      await served.stop();
    }
  });
});
