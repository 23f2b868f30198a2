/**
 * The README's "A test licence, step by step" (seed 004 editions), run as written in a fresh
 * home with `lore` on the PATH: the lines up to `lore license show` through `sh`, then
 * `lore serve` (on a free port instead of 7377) and the `curl` line against it.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runReadmeCurl } from "./readme-curl-lines.js";
import { LORE_BIN } from "./run-lore.js";
import { startServe } from "./serve-lore.js";

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"),
  "utf8",
);
const run = promisify(execFile);

/** The lines of the sh block after the `licence-steps` marker. */
function steps(): string[] {
  const block = /<!-- licence-steps[^>]*-->\n```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
  return block.split("\n").filter((line) => line.trim() !== "");
}

const root = mkdtempSync(join(tmpdir(), "lore-licence-readme-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the README's test licence steps", () => {
  it("make a Pro test licence that lore license show and lore serve's /healthz report", async () => {
    const lines = steps();
    expect(lines).toHaveLength(8);
    const serveAt = lines.indexOf("lore serve &");
    expect(serveAt).toBe(6);
    const curl = lines[7] as string;
    expect(curl).toBe("curl -s http://127.0.0.1:7377/healthz");

    const home = join(root, "home");
    const bin = join(root, "bin");
    mkdirSync(home, { recursive: true });
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "lore"), `#!/bin/sh\nexec "${process.execPath}" "${LORE_BIN}" "$@"\n`);
    chmodSync(join(bin, "lore"), 0o755);
    const env = {
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      LORE_USER: "tester",
      LORE_LANG: "en",
    };
    const script = [...lines.slice(0, serveAt), 'echo "KEY=$LORE_LICENSE_PUBLIC_KEY"'].join("\n");
    const { stdout } = await run("sh", ["-e", "-c", script], { env, cwd: home });
    expect(stdout).toMatch(/^edition +pro$/m);
    expect(stdout).toMatch(/^licensee +Acme test$/m);
    expect(stdout).toMatch(/^signed by +a test key \(LORE_LICENSE_PUBLIC_KEY\)$/m);
    expect(stdout).toMatch(/^today +valid: the pro edition$/m);
    const key = /^KEY=(.+)$/m.exec(stdout)?.[1] ?? "";
    expect(key).toBe(join(home, "lore-keys", "public.pem"));

    const served = await startServe(["--port", "0"], {
      cwd: home,
      env: { ...env, LORE_LICENSE_PUBLIC_KEY: key },
    });
    try {
      const answer = await runReadmeCurl(curl, served.url.port, {});
      expect(answer.status).toBe(200);
      expect((answer.body as { license: unknown }).license).toEqual({
        edition: "pro",
        licensee: "Acme test",
        expires: "2099-12-31",
        test: true,
      });
    } finally {
      await served.stop();
    }
  });
});
