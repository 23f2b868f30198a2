/**
 * `lore serve` keeps idle keep-alive connections 65 s (scale-out behind nginx: Node's
 * default of 5 s is shorter than a proxy's idle time, so nginx reused connections the
 * server was closing and a POST came back 502): the built bin, a real connection left idle
 * past Node's default and used again.
 */
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

let home: ReturnType<typeof isolatedEnv>;
let served: ServedLore;

beforeAll(async () => {
  home = isolatedEnv();
  served = await startServe(["--port", "0"], { cwd: home.dir, env: home.env });
}, 60_000);

afterAll(async () => {
  await served?.stop();
  home?.cleanup();
});

/** GET /healthz through `agent`: the status, the Keep-Alive header, whether the socket was reused. */
function healthz(agent: Agent): Promise<{ status: number; keepAlive: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL("/healthz", served.url), { agent }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          keepAlive: String(res.headers["keep-alive"] ?? ""),
          reused: req.reusedSocket,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("lore serve keep-alive", () => {
  it("announces timeout=65 and answers on a connection left idle past Node's 5 s default", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await healthz(agent);
      expect(first).toEqual({ status: 200, keepAlive: "timeout=65", reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6500));
      const again = await healthz(agent);
      expect(again).toEqual({ status: 200, keepAlive: "timeout=65", reused: true });
    } finally {
      agent.destroy();
    }
  }, 30_000);
});
