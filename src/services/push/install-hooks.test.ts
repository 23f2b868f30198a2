import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hookScript } from "../../core/push/hook-script.js";
import { installHooks } from "./install-hooks.js";

const options = {
  node: "/usr/bin/node",
  main: "/opt/lore/dist/cli/main.js",
  database: "/var/lore/index.db",
  data: "/var/lore/server",
  config: "/etc/lore/lore.toml",
};

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("installHooks", () => {
  it("writes both hooks with mode 0755, rewrites Lore's own when different, refuses another's without force", async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-hooks-"));
    await installHooks(dir, options);
    for (const hook of ["pre-receive", "post-receive"] as const) {
      const file = join(dir, "hooks", hook);
      expect(await readFile(file, "utf8")).toBe(hookScript(hook, options));
      expect((await stat(file)).mode & 0o777).toBe(0o755);
    }
    const moved = { ...options, node: "/usr/local/bin/node" };
    await installHooks(dir, moved);
    expect(await readFile(join(dir, "hooks", "pre-receive"), "utf8")).toBe(
      hookScript("pre-receive", moved),
    );
    await writeFile(join(dir, "hooks", "post-receive"), "#!/bin/sh\necho theirs\n");
    await expect(installHooks(dir, options)).rejects.toMatchObject({ code: "file_exists" });
    await installHooks(dir, { ...options, force: true });
    expect(await readFile(join(dir, "hooks", "post-receive"), "utf8")).toBe(
      hookScript("post-receive", options),
    );
    await expect(installHooks(join(dir, "missing"), options)).rejects.toMatchObject({
      code: "path_not_found",
    });
  });
});

describe("installHooks layouts", () => {
  it("writes GitLab's custom_hooks/ and Gitea's hooks/<hook>.d/lore", async () => {
    dir = await mkdtemp(join(tmpdir(), "lore-hooks-"));
    await installHooks(dir, { ...options, layout: "gitlab" });
    expect(await readFile(join(dir, "custom_hooks", "pre-receive"), "utf8")).toBe(
      hookScript("pre-receive", options),
    );
    await installHooks(dir, { ...options, layout: "gitea" });
    expect(await readFile(join(dir, "hooks", "post-receive.d", "lore"), "utf8")).toBe(
      hookScript("post-receive", options),
    );
  });
});
