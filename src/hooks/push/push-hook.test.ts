import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookScript } from "../../core/push/hook-script.js";
import { pushHookArgs, runPushHook } from "./push-hook.js";

const MAIN = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "dist",
  "cli",
  "main.js",
);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-push-hook-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("pushHookArgs", () => {
  it("takes the arguments a hook script passes, as the script passes them", () => {
    // A stand-in for node that records its arguments, run by the real script text.
    const record = join(dir, "args");
    const node = join(dir, "node");
    writeFileSync(node, `#!/bin/sh\nprintf '%s\\0' "$@" > '${record}'\n`);
    chmodSync(node, 0o755);
    const main = join(dir, "main.js");
    writeFileSync(main, "");
    for (const name of [undefined, "acme/it's app"]) {
      const script = join(dir, "hook");
      writeFileSync(
        script,
        hookScript("post-receive", {
          node,
          main,
          database: join(dir, "index.db"),
          data: join(dir, "data folder"),
          config: null,
          ...(name === undefined ? {} : { name }),
        }),
      );
      expect(spawnSync("sh", [script]).status).toBe(0);
      const args = readFileSync(record, "utf8").split("\0").slice(1, -1);
      expect(pushHookArgs(args)).toEqual({
        hook: "post-receive",
        data: join(dir, "data folder"),
        ...(name === undefined ? {} : { name }),
      });
    }
  });

  it("leaves every other shape to the full CLI", () => {
    expect(pushHookArgs(["hook", "pre-receive"])).toEqual({ hook: "pre-receive" });
    expect(pushHookArgs(["hook", "pre-receive", "--name", "a/b", "--data", "/d"])).toEqual({
      hook: "pre-receive",
      name: "a/b",
      data: "/d",
    });
    for (const argv of [
      ["hook", "install", "/srv/app.git"],
      ["hook", "claude-code"],
      ["recall", "pre-receive"],
      ["hook", "pre-receive", "--help"],
      ["hook", "pre-receive", "--data"],
      ["hook", "pre-receive", "--data=/d"],
      ["hook", "pre-receive", "--data", "/d", "--data", "/e"],
      ["hook", "pre-receive", "--config", "/etc/lore.toml"],
      ["hook", "pre-receive", "--data", "-h"],
    ]) {
      expect(pushHookArgs(argv)).toBeUndefined();
    }
  });

  it("the built CLI answers a shape it leaves (--help) as the full command table does", () => {
    const run = spawnSync(process.execPath, [MAIN, "hook", "pre-receive", "--help"], {
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("lore hook pre-receive|post-receive --data D");
  });
});

describe("runPushHook", () => {
  it("says a failure of the settings on stderr and accepts the push (exit 0)", async () => {
    const stdin = new PassThrough();
    stdin.end(
      "0000000000000000000000000000000000000000 1111111111111111111111111111111111111111 refs/heads/main\n",
    );
    const stderr = new PassThrough();
    let said = "";
    stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString("utf8");
    });
    const code = await runPushHook(
      "pre-receive",
      {},
      {
        stdin,
        stderr,
        env: {},
        cwd: dir,
        settings: () => {
          throw new Error("no settings here");
        },
        lang: () => "en",
      },
    );
    expect(code).toBe(0);
    expect(said).toBe("lore: pre-receive failed, the push is accepted: no settings here\n");
  });
});
