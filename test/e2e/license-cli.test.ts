/**
 * `lore license keygen|make|show` and `lore serve` with a licence, end to end (seed 004
 * editions): the commands of the README's "Editions" section, run as a user runs them, and
 * the edition `GET /healthz` reports for no licence, a Pro one, an expired one; a bad one
 * stops the server with exit 2.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv, runLore } from "./run-lore.js";
import { startServe } from "./serve-lore.js";

let home: ReturnType<typeof isolatedEnv>;
let keys: string;
let trusted: Record<string, string>;

const lore = (args: string[], env: Record<string, string> = home.env) =>
  runLore(args, { cwd: home.dir, env });

beforeAll(() => {
  home = isolatedEnv();
  keys = join(home.dir, "keys");
  trusted = { ...home.env, LORE_LICENSE_PUBLIC_KEY: join(keys, "public.pem") };
});
afterAll(() => home?.cleanup());

/** `[server] license` in the user's lore.toml. */
function configure(licence: string | undefined): void {
  const file = join(home.env.XDG_CONFIG_HOME as string, "lore", "lore.toml");
  mkdirSync(join(home.env.XDG_CONFIG_HOME as string, "lore"), { recursive: true });
  writeFileSync(
    file,
    licence === undefined ? "" : `[server]\nlicense = ${JSON.stringify(licence)}\n`,
  );
}

describe("lore license", () => {
  it("help lists the three subcommands", async () => {
    const help = await lore(["license", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("lore license keygen --out DIR");
    expect(help.stdout).toContain("lore license make --edition pro|max --licensee NAME");
    expect(help.stdout).toContain("lore license show [FILE] [--json]");
    expect((await lore(["--help"])).stdout).toMatch(/license\s+editions: make a licence key pair/);
    const serve = (await lore(["serve", "--help"])).stdout;
    expect(serve).toContain("comes from the licence file [server] license names");
    expect(serve).toContain("license_invalid");
  });

  it("keygen writes private.pem 0600 and public.pem, and never overwrites them", async () => {
    const made = await lore(["license", "keygen", "--out", keys]);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`export LORE_LICENSE_PUBLIC_KEY=${join(keys, "public.pem")}`);
    expect(statSync(join(keys, "private.pem")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(keys, "private.pem"), "utf8")).toContain("BEGIN PRIVATE KEY");
    expect(readFileSync(join(keys, "public.pem"), "utf8")).toContain("BEGIN PUBLIC KEY");
    const again = await lore(["license", "keygen", "--out", keys]);
    expect(again.code).toBe(4);
    expect(again.stderr).toContain("[file_exists]");
  });

  it("make signs a licence; show verifies it with the test key and prints it", async () => {
    const file = join(home.dir, "pro.json");
    const made = await lore([
      "license",
      "make",
      "--edition",
      "pro",
      "--licensee",
      "Acme GmbH",
      "--expires",
      "2099-12-31",
      "--key",
      join(keys, "private.pem"),
      "--out",
      file,
    ]);
    expect(made.code).toBe(0);
    const licence = JSON.parse(readFileSync(file, "utf8"));
    expect(licence).toMatchObject({
      lore_license: 1,
      edition: "pro",
      licensee: "Acme GmbH",
      expires: "2099-12-31",
    });
    expect(licence.issued).toBe(new Date().toISOString().slice(0, 10));
    expect(Buffer.from(licence.signature, "base64")).toHaveLength(64);
    const shown = await lore(["license", "show", file], trusted);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/edition\s+pro/);
    expect(shown.stdout).toMatch(/signed by\s+a test key \(LORE_LICENSE_PUBLIC_KEY\)/);
    expect(shown.stdout).toMatch(/today\s+valid: the pro edition/);
    const json = JSON.parse((await lore(["license", "show", file, "--json"], trusted)).stdout);
    expect(json.state).toEqual({
      edition: "pro",
      licensee: "Acme GmbH",
      expires: "2099-12-31",
      test: true,
    });
  });

  it("show refuses a licence without its key, and a tampered one: exit 2 license_invalid", async () => {
    const file = join(home.dir, "pro.json");
    const untrusted = await lore(["license", "show", file]);
    expect(untrusted.code).toBe(2);
    expect(untrusted.stderr).toContain(`the licence file ${file} is not valid`);
    expect(untrusted.stderr).toContain("LORE_LICENSE_PUBLIC_KEY");
    expect(untrusted.stderr).toContain("[license_invalid]");
    const tampered = join(home.dir, "tampered.json");
    const licence = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(tampered, JSON.stringify({ ...licence, edition: "max" }));
    const refused = await lore(["license", "show", tampered], trusted);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("signature does not match");
  });

  it("make refuses a bad edition, a bad date, a missing key", async () => {
    const key = join(keys, "private.pem");
    const base = ["license", "make", "--licensee", "x", "--key", key];
    const community = await lore([...base, "--edition", "community"]);
    expect(community.code).toBe(2);
    expect(community.stderr).toContain("--edition must be pro or max, not “community”");
    const date = await lore([...base, "--edition", "pro", "--expires", "31.12.2099"]);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain("--expires must be a date YYYY-MM-DD");
    const noKey = await lore(["license", "make", "--edition", "pro", "--licensee", "x"]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("needs --key");
    const publicKey = await lore([
      "license",
      "make",
      "--edition",
      "pro",
      "--licensee",
      "x",
      "--key",
      join(keys, "public.pem"),
    ]);
    expect(publicKey.code).toBe(2);
    expect(publicKey.stderr).toContain("not a PEM private key");
  });

  it("show without a file reads [server] license; none set: Community", async () => {
    configure(undefined);
    const none = await lore(["license", "show"]);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain(
      "no licence ([server] license is not set): the Community edition",
    );
    configure(join(home.dir, "pro.json"));
    const shown = await lore(["license", "show"], trusted);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/licensee\s+Acme GmbH/);
    configure(undefined);
  });
});

describe("lore doctor checks the licence", () => {
  it("a good one: no finding; a tampered one: license_invalid, exit 2; an expired one: license_expired, a warning", async () => {
    configure(join(home.dir, "pro.json"));
    const good = await lore(["doctor"], trusted);
    expect(good.code).toBe(0);
    expect(good.stdout).not.toContain("[license_");
    configure(join(home.dir, "tampered.json"));
    const bad = await lore(["doctor"], trusted);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toMatch(
      /^error: the licence file .*tampered\.json is not valid: the signature does not match.* \[license_invalid\]$/m,
    );
    const old = join(home.dir, "old-for-doctor.json");
    await lore([
      "license",
      "make",
      "--edition",
      "pro",
      "--licensee",
      "Old Co",
      "--issued",
      "2020-01-01",
      "--expires",
      "2020-06-30",
      "--key",
      join(keys, "private.pem"),
      "--out",
      old,
    ]);
    configure(old);
    const expired = await lore(["doctor"], trusted);
    expect(expired.code).toBe(0);
    expect(expired.stdout).toContain(
      `warning: the licence ${old} (Old Co) expired on 2020-06-30; the server runs the community edition [license_expired]`,
    );
    configure(undefined);
  });
});

describe("lore serve with a licence", () => {
  /** `/healthz`, and the status of `stats/team` on a repository that does not exist. */
  const health = async (env: Record<string, string>) => {
    const served = await startServe(["--port", "0"], { cwd: home.dir, env });
    try {
      const answer = await fetch(new URL("/healthz", served.url));
      const team = await fetch(
        new URL("/api/v1/repos/acme/none/knowledge/stats/team", served.url),
        { headers: served.headers },
      );
      const teamBody = (await team.json()) as { error: { code: string } };
      return {
        body: (await answer.json()) as Record<string, unknown>,
        stderr: served.stderr(),
        team: `${team.status} ${teamBody.error.code}`,
      };
    } finally {
      await served.stop();
    }
  };

  it("no licence: GET /healthz says community; stats/team is 402 before the repository is looked at", async () => {
    configure(undefined);
    const { body, team } = await health(home.env);
    expect(body.license).toEqual({ edition: "community" });
    expect(team).toBe("402 license_required");
  });

  it("a Pro test licence: GET /healthz says pro, its licensee and that it is a test licence", async () => {
    configure(join(home.dir, "pro.json"));
    const { body, team } = await health(trusted);
    expect(body.license).toEqual({
      edition: "pro",
      licensee: "Acme GmbH",
      expires: "2099-12-31",
      test: true,
    });
    // Served: the rights answer (no such repository), not the licence.
    expect(team).toBe("404 repo_not_found");
  });

  it("an expired licence: a warning, and the server runs Community", async () => {
    const file = join(home.dir, "expired.json");
    const made = await lore([
      "license",
      "make",
      "--edition",
      "max",
      "--licensee",
      "Old Co",
      "--issued",
      "2020-01-01",
      "--expires",
      "2020-12-31",
      "--key",
      join(keys, "private.pem"),
      "--out",
      file,
    ]);
    expect(made.code).toBe(0);
    configure(file);
    const { body, stderr, team } = await health(trusted);
    expect(team).toBe("402 license_required");
    expect(body.license).toEqual({
      edition: "community",
      licensee: "Old Co",
      expires: "2020-12-31",
      expired: true,
      test: true,
    });
    expect(stderr).toContain(
      `lore: the licence ${file} (Old Co) expired on 2020-12-31; the server runs the community edition`,
    );
  });

  it("a bad licence stops the server: exit 2, license_invalid, nothing listens", async () => {
    configure(join(home.dir, "tampered.json"));
    const run = await lore(["serve", "--port", "0", "--ssh-port", "0"], trusted);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `the licence file ${join(home.dir, "tampered.json")} is not valid`,
    );
    expect(run.stderr).toContain("[license_invalid]");
    expect(run.stderr).not.toContain("serving MCP");
    configure(join(home.dir, "missing.json"));
    const missing = await lore(["serve", "--port", "0", "--ssh-port", "0"], trusted);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("cannot be read (ENOENT)");
    configure(undefined);
  });
});
