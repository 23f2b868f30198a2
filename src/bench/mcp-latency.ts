/**
 * Recall latency over MCP and the server's peak RSS: one stdio server is started through the
 * SDK's `Client`, the query set is sent as tool calls one after the other (one untimed warm-up
 * pass, then timed passes), and the server's `VmHWM` is read while it runs (`peak-rss.ts`).
 * The same harness drives `lore mcp` and a peer's server (qmd), so their figures compare.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type LatencyStats, summarize } from "./latency-stats.js";
import { watchPeakRss } from "./peak-rss.js";

/** A stdio server to drive: its command line (as for `measureColdStart`). */
export interface McpServerCommand {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
}

/** One tool call of the query set, tagged with the query's category. */
export interface McpCall {
  category: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** What {@link measureMcpLatency} found. */
export interface McpLatencyResult {
  /** Every timed call, ms (wall time from send to result). */
  all: LatencyStats;
  /** Per category. */
  byCategory: Record<string, LatencyStats>;
  /** Every timed call but those of the category `options.apart` (when given). */
  allButApart?: LatencyStats;
  /** Peak RSS of the server process over its whole life (start, warm-up, timed passes), bytes. */
  peakRssBytes: number;
  /** Calls whose result was an error result (they are timed all the same). */
  errors: number;
  /** First error result's text, when any. */
  firstError?: string;
}

/**
 * Starts the server, sends `calls` once untimed, then `passes` timed passes, and stops it.
 *
 * @throws Error when the server cannot start or a call fails at the protocol level.
 */
export async function measureMcpLatency(
  server: McpServerCommand,
  calls: readonly McpCall[],
  options: { passes: number; callTimeoutMs?: number; apart?: string },
): Promise<McpLatencyResult> {
  let stderr = "";
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    env: { ...(process.env as Record<string, string>), ...server.env },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString("utf8")).slice(-4000);
  });
  const client = new Client({ name: "lore-bench", version: "0.0.0" });
  let watch: ReturnType<typeof watchPeakRss> | undefined;
  try {
    await client.connect(transport);
    if (transport.pid !== null) watch = watchPeakRss(transport.pid);
    const timeout = { timeout: options.callTimeoutMs ?? 600_000 };
    let errors = 0;
    let firstError: string | undefined;
    const call = async (c: McpCall): Promise<void> => {
      const result = await client.callTool(
        { name: c.tool, arguments: c.arguments },
        undefined,
        timeout,
      );
      if (result.isError === true) {
        errors += 1;
        const content = (result.content ?? []) as { text?: string }[];
        firstError ??= content
          .map((x) => x.text ?? "")
          .join("")
          .slice(0, 200);
      }
    };
    for (const c of calls) await call(c);
    const timings: { category: string; ms: number }[] = [];
    for (let pass = 0; pass < options.passes; pass++) {
      for (const c of calls) {
        const t0 = performance.now();
        await call(c);
        timings.push({ category: c.category, ms: performance.now() - t0 });
      }
    }
    const byCategory: Record<string, LatencyStats> = {};
    for (const category of new Set(calls.map((c) => c.category))) {
      byCategory[category] = summarize(
        timings.filter((t) => t.category === category).map((t) => t.ms),
      );
    }
    const peakRssBytes = watch?.stop() ?? 0;
    const apart = options.apart;
    return {
      all: summarize(timings.map((t) => t.ms)),
      byCategory,
      ...(apart === undefined
        ? {}
        : { allButApart: summarize(timings.filter((t) => t.category !== apart).map((t) => t.ms)) }),
      peakRssBytes,
      errors,
      ...(firstError === undefined ? {} : { firstError }),
    };
  } catch (error) {
    throw new Error(
      `MCP latency run of ${server.args.join(" ")} failed: ${String(error)}\n${stderr}`,
    );
  } finally {
    watch?.stop();
    await client.close().catch(() => undefined);
  }
}
