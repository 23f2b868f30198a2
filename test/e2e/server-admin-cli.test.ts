/**
 * The team server's administration commands (`lore user|token|group|access|key|repo|branch`)
 * as users run them: the built `lore` on a temp `--config` whose `[server] data` is a temp
 * folder; the records checked through the services on the same real `server.db`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openServerStore } from "../../src/main/open-server.js";
import { authenticateToken } from "../../src/services/access/authenticate.js";
import { authorizeRepo } from "../../src/services/access/authorize.js";
import { isolatedEnv, type LoreRun, runLore } from "./run-lore.js";

/** An ed25519 public key and the fingerprint `ssh-keygen -lf` printed for it. */
const KEY =
  "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEHPC22CP0SgbgA+KcJ0AbU0L+7hxhEAOnM89niL4v5P anna@laptop\n";
const FINGERPRINT = "SHA256:uEa0sqQitrj+ksh4fbMBOIhSnfHUT0dSvyfbdLgszB8";

let sandbox: ReturnType<typeof isolatedEnv>;
let config: string;
let data: string;

function lore(...args: string[]): Promise<LoreRun> {
  return runLore([...args, "--config", config], { cwd: sandbox.dir, env: sandbox.env });
}

beforeAll(() => {
  sandbox = isolatedEnv();
  data = join(sandbox.dir, "server-data");
  config = join(sandbox.dir, "lore.toml");
  writeFileSync(config, `[server]\ndata = ${JSON.stringify(data)}\n`);
  writeFileSync(join(sandbox.dir, "id_ed25519.pub"), KEY);
});
afterAll(() => sandbox.cleanup());

describe("lore user, token, group, access, key, repo, branch on the server database", () => {
  it("lore user add|list|rm", async () => {
    expect(await lore("user", "add", "anna")).toMatchObject({ code: 0, stderr: "" });
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect((await lore("user", "add", "boris")).code).toBe(0);
    expect((await lore("user", "add", "root", "--admin")).stdout).toBe(
      "user root added (site admin); next: lore token create root --scopes …\n",
    );
    const dup = await lore("user", "add", "anna");
    expect(dup).toMatchObject({
      code: 4,
      stdout: "",
      stderr: "lore: the user anna already exists [user_exists]\n",
    });
    // `--` keeps `-rf` a name, as a shell user would write it.
    const bad = await runLore(["user", "add", "--config", config, "--", "-rf"], {
      cwd: sandbox.dir,
      env: sandbox.env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("a part may not start with “-” or “.”");
    const list = JSON.parse((await lore("user", "list", "--json")).stdout) as {
      name: string;
      siteAdmin: boolean;
    }[];
    expect(list.map((u) => [u.name, u.siteAdmin])).toEqual([
      ["anna", false],
      ["boris", false],
      ["root", true],
    ]);
    expect((await lore("user", "add", "gone")).code).toBe(0);
    expect((await lore("user", "rm", "gone")).code).toBe(0);
    expect(await lore("user", "rm", "gone")).toMatchObject({
      code: 3,
      stderr: "lore: no user gone [user_not_found]\n",
    });
  });

  it("lore repo create makes the bare repository; --public, --default-branch; list; bad names refused", async () => {
    const created = await lore("repo", "create", "acme/app", "--default-branch", "main");
    expect(created.code).toBe(0);
    const bare = join(data, "repos", "acme", "app.git");
    expect(created.stdout).toBe(`created acme/app (private, default branch main) at ${bare}\n`);
    expect(
      execFileSync("git", ["--git-dir", bare, "rev-parse", "--is-bare-repository"], {
        encoding: "utf8",
      }),
    ).toBe("true\n");
    expect(readFileSync(join(bare, "HEAD"), "utf8")).toBe("ref: refs/heads/main\n");
    const pub = JSON.parse(
      (await lore("repo", "create", "acme/docs", "--public", "--default-branch", "trunk", "--json"))
        .stdout,
    );
    expect(pub).toMatchObject({ fullName: "acme/docs", public: true, defaultBranch: "trunk" });
    expect(readFileSync(join(pub.path, "HEAD"), "utf8")).toBe("ref: refs/heads/trunk\n");
    expect((await lore("repo", "create", "acme/app")).code).toBe(4);
    for (const name of ["acme/-rf", "acme/..", "acme/%2e%2e", "a/b/c", "acme/app.git"]) {
      const run = await lore("repo", "create", name);
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toMatch(/ is not a repository name: .* \[invalid_repo_name\]\n$/);
    }
    expect((await lore("repo", "create", "Acme/App")).stderr).toBe(
      'lore: "Acme/App" is not a repository name: upper case is not allowed; write it lower-case: acme/app [invalid_repo_name]\n',
    );
    expect((await lore("repo", "list")).stdout).toBe(
      "acme/app  private  main\nacme/docs  public  trunk\n",
    );
  });

  it("lore token create prints the token alone on stdout; only its hash is stored; list never shows it", async () => {
    const run = await lore(
      "token",
      "create",
      "anna",
      "--scopes",
      "knowledge:read,knowledge:write,repo:read,repo:write",
      "--expires",
      "30d",
      "--label",
      "laptop",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^lore_[A-Za-z0-9_-]{43}\n$/);
    expect(run.stderr).toMatch(
      /^lore: token \d+ for anna: knowledge:read,knowledge:write,repo:read,repo:write, expires: \S+Z; shown once — store it now\n$/,
    );
    const secret = run.stdout.trim();
    for (const file of ["server.db", "server.db-wal"]) {
      if (existsSync(join(data, file)))
        expect(readFileSync(join(data, file)).includes(secret)).toBe(false);
    }
    const listed = await lore("token", "list", "anna");
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).toContain(
      `${secret.slice(0, 12)}…  knowledge:read,knowledge:write,repo:read,repo:write  expires: `,
    );
    expect(listed.stdout).toContain("last used: never  laptop");
    const json = (await lore("token", "list", "--json")).stdout;
    expect(json).not.toContain(secret);
    expect(JSON.parse(json)[0]).toMatchObject({ user: "anna", label: "laptop", lastUsedAt: null });

    // The token the CLI printed authenticates against the same database.
    const store = await openServerStore(data);
    try {
      const principal = await authenticateToken(store, secret, Date.now());
      expect(principal.user).toBe("anna");
      expect(principal.scopes).toEqual([
        "knowledge:read",
        "knowledge:write",
        "repo:read",
        "repo:write",
      ]);
    } finally {
      await store.close();
    }
    expect((await lore("token", "list", "anna")).stdout).not.toContain("last used: never");

    const typo = await lore("token", "create", "anna", "--scopes", "knowlege:read");
    expect(typo).toMatchObject({ code: 2, stdout: "" });
    expect(typo.stderr).toContain('unknown scope "knowlege:read"; did you mean knowledge:read?');
    expect(
      (await lore("token", "create", "anna", "--scopes", "repo:read", "--expires", "30 days")).code,
    ).toBe(2);
    expect((await lore("token", "create", "anna")).stderr).toContain("--scopes is required");
    expect((await lore("token", "create", "nobody", "--scopes", "repo:read")).code).toBe(3);

    const id = JSON.parse(json)[0].id as number;
    expect(await lore("token", "revoke", String(id))).toMatchObject({
      code: 0,
      stdout: `token ${id} revoked\n`,
    });
    expect(await lore("token", "revoke", String(id))).toMatchObject({
      code: 3,
      stderr: `lore: no token ${id} [token_not_found]\n`,
    });
    const after = await openServerStore(data);
    try {
      await expect(authenticateToken(after, secret, Date.now())).rejects.toMatchObject({
        code: "token_invalid",
      });
    } finally {
      await after.close();
    }
  });

  it("lore group add|list|member add|rm and lore access grant|revoke|list decide what a token may do", async () => {
    expect((await lore("group", "add", "leads")).code).toBe(0);
    expect(await lore("group", "member", "add", "leads", "boris")).toMatchObject({
      code: 0,
      stdout: "boris is a member of leads\n",
    });
    expect((await lore("group", "list")).stdout).toBe("leads: boris\n");
    expect((await lore("access", "grant", "anna", "acme/app", "write")).stdout).toBe(
      "anna: write on acme/app\n",
    );
    expect((await lore("access", "grant", "group:leads", "acme/app", "read")).code).toBe(0);
    expect((await lore("access", "list", "acme/app")).stdout).toBe(
      "anna  write\ngroup:leads  read\n",
    );
    expect(JSON.parse((await lore("access", "list", "acme/app", "--json")).stdout)).toEqual({
      repo: "acme/app",
      public: false,
      grants: [
        { subject: "anna", level: "write" },
        { subject: "group:leads", level: "read" },
      ],
    });
    expect((await lore("access", "grant", "anna", "acme/app", "wrte")).stderr).toContain(
      "did you mean write?",
    );
    expect((await lore("access", "grant", "anna", "acme/none", "read")).code).toBe(3);
    expect((await lore("access", "grant", "group:none", "acme/app", "read")).stderr).toBe(
      "lore: no group none [group_not_found]\n",
    );

    const boris = (
      await lore("token", "create", "boris", "--scopes", "repo:read,repo:write")
    ).stdout.trim();
    const store = await openServerStore(data);
    try {
      const principal = await authenticateToken(store, boris, Date.now());
      await expect(authorizeRepo(store, principal, "acme/app", "repo:read")).resolves.toMatchObject(
        {
          fullName: "acme/app",
        },
      );
      await expect(authorizeRepo(store, principal, "acme/app", "repo:write")).rejects.toMatchObject(
        {
          code: "forbidden",
          data: { missing: "write access to acme/app" },
        },
      );
    } finally {
      await store.close();
    }
    expect((await lore("group", "member", "rm", "leads", "boris")).stdout).toBe(
      "boris removed from leads\n",
    );
    expect((await lore("access", "revoke", "group:leads", "acme/app")).stdout).toBe(
      "group:leads: access to acme/app revoked\n",
    );
    expect((await lore("access", "list", "acme/app")).stdout).toBe("anna  write\n");
    expect((await lore("group", "rm", "leads")).code).toBe(0);
    expect((await lore("group", "rm", "leads")).code).toBe(3);
  });

  it("lore key add|list|rm with the fingerprint ssh-keygen prints", async () => {
    const added = await lore("key", "add", "anna", "id_ed25519.pub");
    expect(added).toMatchObject({
      code: 0,
      stdout: `key 1 ${FINGERPRINT} (ssh-ed25519) added for anna\n`,
    });
    expect((await lore("key", "add", "boris", "id_ed25519.pub")).stderr).toBe(
      `lore: the SSH key ${FINGERPRINT} is already registered [key_exists]\n`,
    );
    expect((await lore("key", "add", "anna", "missing.pub")).code).toBe(3);
    writeFileSync(join(sandbox.dir, "id_x"), "-----BEGIN OPENSSH PRIVATE KEY-----\nxyz\n");
    expect((await lore("key", "add", "anna", "id_x")).code).toBe(2);
    expect((await lore("key", "list", "anna")).stdout).toMatch(
      new RegExp(
        `^1  anna  ${FINGERPRINT.replace(/[+/]/g, "\\$&")}  ssh-ed25519  \\S+Z  anna@laptop\\n$`,
      ),
    );
    expect((await lore("key", "rm", FINGERPRINT)).stdout).toBe(`key 1 ${FINGERPRINT} removed\n`);
    expect((await lore("key", "rm", "1")).code).toBe(3);
    expect((await lore("key", "list", "--json")).stdout).toBe("[]\n");
  });

  it("lore branch protect|rules|unprotect", async () => {
    expect((await lore("group", "add", "leads")).code).toBe(0);
    const run = await lore(
      "branch",
      "protect",
      "acme/app",
      "release/*",
      "--push",
      "anna,group:leads",
    );
    expect(run).toMatchObject({
      code: 0,
      stdout: "acme/app release/*: protected; push: anna, group:leads; force pushes refused\n",
    });
    expect(
      await lore("branch", "protect", "acme/app", "main", "--allow-force", "--approvals", "2"),
    ).toMatchObject({
      code: 0,
      stdout:
        "acme/app main: protected; push: anyone with write access; force pushes allowed; approvals to merge: 2\n",
    });
    expect((await lore("branch", "protect", "acme/app", "main", "--approvals", "x")).code).toBe(2);
    expect((await lore("branch", "rules", "acme/app")).stdout).toBe(
      "main  push: anyone with write access  force: allowed  approvals: 2\nrelease/*  push: anna, group:leads  force: refused\n",
    );
    expect(JSON.parse((await lore("branch", "rules", "acme/app", "--json")).stdout)).toEqual([
      { pattern: "main", push: [], allowForcePush: true, requiredApprovals: 2 },
      {
        pattern: "release/*",
        push: ["anna", "group:leads"],
        allowForcePush: false,
        requiredApprovals: 0,
      },
    ]);
    expect((await lore("branch", "protect", "acme/app", "refs/heads/x")).code).toBe(2);
    expect((await lore("branch", "protect", "acme/none", "main")).code).toBe(3);
    expect((await lore("branch", "unprotect", "acme/app", "main")).stdout).toBe(
      "acme/app main: no longer protected\n",
    );
    expect((await lore("branch", "rules", "acme/app")).stdout).toBe(
      "release/*  push: anna, group:leads  force: refused\n",
    );
  });

  it("lore repo rm removes the record, its grants and the bare folder", async () => {
    const bare = join(data, "repos", "acme", "app.git");
    const unconfirmed = await lore("repo", "rm", "acme/app");
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain("run lore repo rm acme/app --yes");
    expect(existsSync(bare)).toBe(true);
    expect(await lore("repo", "rm", "acme/app", "--yes")).toMatchObject({
      code: 0,
      stdout: `removed acme/app and ${bare}\n`,
    });
    expect(existsSync(bare)).toBe(false);
    expect((await lore("access", "list", "acme/app")).stderr).toBe(
      "lore: no repository acme/app [repo_not_found]\n",
    );
    expect((await lore("repo", "rm", "acme/app", "--yes")).code).toBe(3);
    expect((await lore("repo", "list")).stdout).toBe("acme/docs  public  trunk\n");
  });

  it("usage mistakes are refused with the usage and exit 2; messages follow LORE_LANG=ru", async () => {
    const unknown = await lore("user", "lst");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown subcommand “lst”; did you mean “list”?");
    expect((await lore("user", "list", "--admin")).stderr).toBe(
      "lore: invalid input: --admin is not an option of lore user list (see lore user --help) [invalid_input]\n",
    );
    expect((await lore("access", "grant", "anna")).code).toBe(2);
    const ru = await runLore(["user", "rm", "nobody", "--config", config], {
      cwd: sandbox.dir,
      env: { ...sandbox.env, LORE_LANG: "ru" },
    });
    expect(ru.stderr).toBe("lore: нет пользователя nobody [user_not_found]\n");
  });

  it("without [server] data the data folder is $XDG_DATA_HOME/lore/server", async () => {
    const run = await runLore(["user", "add", "vera"], { cwd: sandbox.dir, env: sandbox.env });
    expect(run.code).toBe(0);
    expect(
      existsSync(join(sandbox.env.XDG_DATA_HOME as string, "lore", "server", "server.db")),
    ).toBe(true);
  });

  it("reads on a machine with no server database answer empty and leave no server.db behind; the first change makes it", async () => {
    const fresh = join(sandbox.dir, "fresh-data");
    const freshConfig = join(sandbox.dir, "fresh.toml");
    writeFileSync(freshConfig, `[server]\ndata = ${JSON.stringify(fresh)}\n`);
    const run = (...args: string[]) =>
      runLore([...args, "--config", freshConfig], { cwd: sandbox.dir, env: sandbox.env });
    expect(await run("user", "list")).toMatchObject({
      code: 0,
      stdout: "no users yet; add one: lore user add NAME\n",
    });
    expect(await run("repo", "list", "--json")).toMatchObject({ code: 0, stdout: "[]\n" });
    expect((await run("token", "list")).code).toBe(0);
    expect((await run("group", "list")).code).toBe(0);
    expect((await run("key", "list")).code).toBe(0);
    // As an empty database answers: the repository is not there.
    expect((await run("access", "list", "acme/app")).stderr).toContain("[repo_not_found]");
    expect(existsSync(join(fresh, "server.db"))).toBe(false);
    expect((await run("user", "add", "anna")).code).toBe(0);
    expect(existsSync(join(fresh, "server.db"))).toBe(true);
    expect((await run("user", "list")).stdout).toMatch(/^anna {2}/);
  });
});
