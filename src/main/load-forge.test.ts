import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitea, startFakeGitea } from "../../test/helpers/fake-gitea.js";
import { authFilePath, createConfiguredForge, loadForgeAuth } from "./load-forge.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function configHome(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "lore-auth-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, "lore"));
  return dir;
}

describe("auth.toml", () => {
  it("reads the token from $XDG_CONFIG_HOME/lore/auth.toml; missing → null", async () => {
    const xdg = await configHome();
    const env = { XDG_CONFIG_HOME: xdg };
    expect(loadForgeAuth({ env })).toBeNull();
    await writeFile(authFilePath(env), '[gitea]\ntoken = "abc"\n', { mode: 0o600 });
    expect(loadForgeAuth({ env })).toEqual({ token: "abc" });
  });

  it.skipIf(process.platform === "win32")(
    "refuses a file readable by group or others",
    async () => {
      const xdg = await configHome();
      const env = { XDG_CONFIG_HOME: xdg };
      await writeFile(authFilePath(env), '[gitea]\ntoken = "abc"\n');
      await chmod(authFilePath(env), 0o644);
      expect(() => loadForgeAuth({ env })).toThrow(
        expect.objectContaining({ code: "auth_file_insecure" }),
      );
      expect(() => loadForgeAuth({ env })).toThrow(/chmod 600/);
      await chmod(authFilePath(env), 0o600);
      await writeFile(authFilePath(env), "token = 1\n");
      expect(() => loadForgeAuth({ env })).toThrow(
        expect.objectContaining({ code: "config_invalid" }),
      );
    },
  );
});

describe("createConfiguredForge", () => {
  let gitea: FakeGitea | undefined;
  afterEach(async () => {
    await gitea?.close();
    gitea = undefined;
  });

  it("builds the local forge from root, relative to the config folder", async () => {
    const made = await createConfiguredForge({ root: "repos" }, { env: {}, base: "/cfg" });
    expect(made?.where).toBe("/cfg/repos");
    expect(made?.owner).toBe("local");
    expect(await createConfiguredForge(undefined, { env: {}, base: "/" })).toBeNull();
    await expect(
      createConfiguredForge({ kind: "local" }, { env: {}, base: "/" }),
    ).rejects.toMatchObject({ code: "config_invalid" });
  });

  it("builds the Gitea forge with the token of auth.toml and the token's user as owner", async () => {
    gitea = await startFakeGitea({ user: "bob" });
    await gitea.addRepo("p", { "a.md": "a" });
    const xdg = await configHome();
    const env = { XDG_CONFIG_HOME: xdg };
    await expect(
      createConfiguredForge({ url: gitea.url }, { env, base: "/" }),
    ).rejects.toMatchObject({ code: "config_invalid" });
    await writeFile(authFilePath(env), `[gitea]\ntoken = "${gitea.token}"\n`, { mode: 0o600 });
    const made = await createConfiguredForge({ kind: "gitea", url: gitea.url }, { env, base: "/" });
    expect(made?.owner).toBe("bob");
    expect(await made?.forge.getRawFile("bob", "p", "a.md")).toBe("a");
  });
});
