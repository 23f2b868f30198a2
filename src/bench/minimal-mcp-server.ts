/**
 * The smallest SDK-based MCP server over stdio: one `echo` tool. The benchmark spawns it to
 * measure the cold-start floor (spawn → initialize → first tool answer) that `lore mcp`'s
 * cold start is divided by. Run: `node dist/bench/minimal-mcp-server.js`.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bench-minimal", version: "0.0.0" });
server.registerTool(
  "echo",
  { description: "Echoes the query back.", inputSchema: { query: z.string() } },
  async ({ query }) => ({ content: [{ type: "text", text: query }] }),
);
await server.connect(new StdioServerTransport());
