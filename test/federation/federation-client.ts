import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LocalForge } from "../../src/adapters/local-forge/local-forge.js";
import { composeLore, type Lore } from "../../src/main/compose.js";
import {
  composeFederation,
  type FederationDeps,
  type FederationForge,
} from "../../src/main/compose-federation.js";
import { loadConfigReader, loadSettings } from "../../src/main/load-config.js";
import { createMcpServer } from "../../src/mcp/create-mcp-server.js";
import { type ToolNameStyle, toolNames } from "../../src/mcp/tool-names.js";
import type { Backend } from "../../src/ports/forge.js";

/** What the federation of a test server is given; `null` = not configured. */
export interface FederationSetup {
  /** Root of a local forge, or null for none. */
  forgeRoot: string | null;
  /** The cache file, or null for none. */
  cacheFile: string | null;
  /** The shared wiki folder, or null for none. */
  sharedWiki?: string | null;
  /** The current project's folder. Default: a temp folder. */
  projectDir?: string;
  /** Tool name style. Default: underscore. */
  toolNames?: ToolNameStyle;
  /** The clock. Default: real time. */
  now?: () => Date;
  /** The server's language. Default: `en`. */
  lang?: "en" | "ru";
  /** Wraps the local forge (e.g. to count its reads); the wrapper must delegate to it. */
  wrapForge?: (forge: Backend) => Backend;
  /** Another forge instead of a local one at `forgeRoot` (e.g. a GiteaForge on the fake Gitea). */
  forge?: FederationForge;
}

/** A real SDK client connected in memory to a real Lore server with the federation tools. */
export interface FederationClient {
  client: Client;
  /** Calls a tool; returns its result. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** The parts of a tool result the tests read. */
export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/**
 * Starts Lore's MCP server with a federation bound to real collaborators (a local forge of
 * real git repositories, a cache file, folders) and connects a real SDK client to it.
 *
 * @param setup - see {@link FederationSetup}.
 */
export async function connectFederation(setup: FederationSetup): Promise<FederationClient> {
  const tmp = mkdtempSync(join(tmpdir(), "lore-fed-"));
  const env = {
    HOME: join(tmp, "home"),
    XDG_CONFIG_HOME: join(tmp, "config"),
    XDG_DATA_HOME: join(tmp, "data"),
    LORE_DB: join(tmp, "index.db"),
    LORE_USER: "tester",
    LORE_LANG: "en",
  };
  await loadConfigReader();
  const lore: Lore = await composeLore(loadSettings({ cwd: tmp, env }));
  const style = setup.toolNames ?? "underscore";
  const names = toolNames(style);
  const deps: FederationDeps = {
    forge:
      setup.forge !== undefined
        ? setup.forge
        : setup.forgeRoot === null
          ? null
          : {
              forge: (setup.wrapForge ?? ((f: Backend) => f))(
                new LocalForge({ root: setup.forgeRoot }),
              ),
              owner: "alice",
              where: setup.forgeRoot,
            },
    cacheFile: setup.cacheFile,
    sharedWiki: setup.sharedWiki ?? null,
    projectDir: setup.projectDir ?? tmp,
    machine: "test-machine",
    names,
    ...(setup.now === undefined ? {} : { now: setup.now }),
  };
  const server = createMcpServer(lore.port(), {
    toolNames: style,
    lang: setup.lang ?? "en",
    federation: composeFederation(deps),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "federation-test", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as ToolResult,
    async close() {
      await client.close();
      await server.close();
      await lore.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The JSON a tool answered as text. */
export function jsonOf(result: ToolResult): Record<string, unknown> {
  return JSON.parse(result.content[0]?.text ?? "null") as Record<string, unknown>;
}
