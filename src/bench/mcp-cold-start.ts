/**
 * Cold start of a stdio MCP server to its first answer: spawn the
 * server, `initialize` through the SDK's `Client` over `StdioClientTransport`, call one tool,
 * and stop the clock when its result arrives.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** One server to start: the command line and the first tool call. */
export interface ColdStartTarget {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  tool: string;
  toolArguments: Record<string, unknown>;
  /** Time limit of the first tool call, ms. Default: the SDK's (60 000). */
  callTimeoutMs?: number;
}

/** One cold start's timings, ms from before spawn. */
export interface ColdStartSample {
  /** Until `initialize` completed. */
  initializeMs: number;
  /** Until the first tool result arrived. */
  firstAnswerMs: number;
  /** The first result was not an error result. */
  ok: boolean;
  /** First 200 characters of the first result's text (for the report when it failed). */
  excerpt: string;
}

/**
 * Starts the target once and measures it; the child is closed before returning.
 * @throws Error when the server cannot be started or the call fails at the protocol level.
 */
export async function measureColdStart(target: ColdStartTarget): Promise<ColdStartSample> {
  let stderr = "";
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args,
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    env: { ...(process.env as Record<string, string>), ...target.env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString("utf8");
  });
  const client = new Client({ name: "lore-bench", version: "0.0.0" });
  try {
    await client.connect(transport);
    const initializeMs = performance.now() - started;
    const result = await client.callTool(
      { name: target.tool, arguments: target.toolArguments },
      undefined,
      target.callTimeoutMs === undefined ? undefined : { timeout: target.callTimeoutMs },
    );
    const firstAnswerMs = performance.now() - started;
    const content = (result.content ?? []) as { type: string; text?: string }[];
    const text = content.map((c) => c.text ?? "").join("");
    return {
      initializeMs,
      firstAnswerMs,
      ok: result.isError !== true,
      excerpt: text.slice(0, 200),
    };
  } catch (error) {
    throw new Error(`cold start of ${target.args.join(" ")} failed: ${String(error)}\n${stderr}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
