import { createServer, type Server, Socket } from "node:net";

/** A TCP proxy on 127.0.0.1 whose answers (server → client) trickle at a set rate. */
export interface ThrottleProxy {
  port: number;
  /** Bytes passed from the server to clients so far. */
  passed(): number;
  close(): Promise<void>;
}

/**
 * Starts a TCP proxy to `127.0.0.1:<target>` that forwards what clients send at once and
 * what the server answers at about `bytesPerSecond`, holding the rest back in the server's
 * socket — so the server's writes meet back-pressure, as behind a slow network. When the
 * server closes or cuts the connection, what was already read is passed on, then the
 * client's side is ended the same way (a cut stays a cut: no byte is invented).
 *
 * @param target - the server's port.
 * @param bytesPerSecond - the answer rate, bytes/s.
 */
export async function startThrottleProxy(
  target: number,
  bytesPerSecond: number,
): Promise<ThrottleProxy> {
  let passed = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    open.add(client);
    open.add(upstream);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    upstream.connect(target, "127.0.0.1");
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => {
      upstream.pause();
      passed += chunk.length;
      client.write(chunk);
      setTimeout(() => upstream.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    upstream.on("end", () => client.end());
    upstream.on("close", () => {
      open.delete(upstream);
      if (!client.writableEnded) client.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    port,
    passed: () => passed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
