/**
 * The raw JSON-RPC messages a test writes to an MCP server by hand (stdio or `POST /mcp`)
 * when it must control the bytes and their timing, which the SDK's client does not let it:
 * the `initialize` request and the `initialized` notification of the MCP handshake.
 */

/** The protocol version the hand-written handshakes ask for. */
export const TEST_PROTOCOL_VERSION = "2025-06-18";

/** An `initialize` request with id 1 from a client named `clientName`. */
export function initializeRequest(clientName = "t"): {
  jsonrpc: "2.0";
  id: 1;
  method: "initialize";
  params: {
    protocolVersion: string;
    capabilities: Record<string, never>;
    clientInfo: { name: string; version: string };
  };
} {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: TEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: clientName, version: "1" },
    },
  };
}

/** The `notifications/initialized` notification that ends the handshake. */
export const INITIALIZED_NOTIFICATION = {
  jsonrpc: "2.0",
  method: "notifications/initialized",
} as const;
