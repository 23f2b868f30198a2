import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const README = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", "README.md"),
  "utf8",
);
const run = promisify(execFile);

/**
 * The `curl` lines of the README's fenced `sh` block right after a `<!-- <marker> … -->`
 * comment (`curl-examples`, `curl-examples-drafts`, `curl-examples-pulls`).
 */
export function readmeCurlLines(marker: string): string[] {
  const pattern = new RegExp(`<!-- ${marker}(?![\\w-])[^>]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``);
  const block = pattern.exec(README)?.[1] ?? "";
  return block.split("\n").filter((line) => line.startsWith("curl "));
}

/** What one README line answered: the HTTP status, the body as JSON (when it is) and as text. */
export interface CurlAnswer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * Runs one README line with real curl through `sh` against a test server: the README's
 * port 7377 becomes `port`, `env` is the whole environment (e.g. `LORE_TOKEN`), the status
 * is read from curl's `-w`; `cwd` is where it runs (files it writes, e.g. a cookie jar).
 */
export async function runReadmeCurl(
  line: string,
  port: string,
  env: Record<string, string>,
  cwd?: string,
): Promise<CurlAnswer> {
  const command = `${line.replaceAll("127.0.0.1:7377", `127.0.0.1:${port}`)} -w '\\n%{http_code}'`;
  const { stdout } = await run("sh", ["-c", command], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    ...(cwd === undefined ? {} : { cwd }),
  });
  const at = stdout.lastIndexOf("\n");
  const text = stdout.slice(0, at);
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(stdout.slice(at + 1)), body, text };
}
