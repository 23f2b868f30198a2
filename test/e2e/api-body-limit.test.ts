import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_API_BODY_BYTES } from "../../src/http/api-body-limit.js";
import { isolatedEnv } from "./run-lore.js";
import { type ServedLore, startServe } from "./serve-lore.js";

// A REST API body is read up to 1 MiB and no further (README "Limits"): before, any token
// holder could make `lore serve` hold a body of hundreds of megabytes in memory.

let sandbox: ReturnType<typeof isolatedEnv>;
let served: ServedLore;
let base: string;

beforeAll(async () => {
  sandbox = isolatedEnv();
  served = await startServe(["--port", "0"], { cwd: sandbox.dir, env: sandbox.env });
  base = `${served.url.protocol}//${served.url.host}`;
});
afterAll(async () => {
  await served?.stop();
  sandbox?.cleanup?.();
});

const DRAFTS = "/api/v1/repos/acme/app/knowledge/drafts";

function draftBody(size: number): Buffer {
  const head = '{"branch":"main","title":"t","body":"';
  return Buffer.from(`${head}${"x".repeat(size - head.length - 2)}"}`);
}

async function post(bytes: Buffer, streamed: boolean, lang = "en") {
  const body = streamed
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += 65_536)
            controller.enqueue(bytes.subarray(i, i + 65_536));
          controller.close();
        },
      })
    : bytes;
  const answer = await fetch(`${base}${DRAFTS}`, {
    method: "POST",
    headers: { "content-type": "application/json", "accept-language": lang, ...served.headers },
    body,
    duplex: "half",
  } as RequestInit);
  return {
    status: answer.status,
    body: (await answer.json()) as { error: { code: string; message: string } },
  };
}

describe("lore serve: the REST API body limit", () => {
  it("a body of 1 MiB + 1 byte is 413 request_too_large, declared or streamed, in English and Russian", async () => {
    for (const streamed of [false, true]) {
      const answer = await post(draftBody(MAX_API_BODY_BYTES + 1), streamed);
      expect(answer.status).toBe(413);
      expect(answer.body.error.code).toBe("request_too_large");
      expect(answer.body.error.message).toContain(
        `over the ${MAX_API_BODY_BYTES}-byte limit of one REST API request body`,
      );
    }
    const ru = await post(draftBody(MAX_API_BODY_BYTES + 1), false, "ru");
    expect(ru.body.error.message).toContain(
      `больше предела одного тела запроса REST API в ${MAX_API_BODY_BYTES} байт`,
    );
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
  });

  it("a body of exactly 1 MiB is read through (refused for its repository, not its size)", async () => {
    const answer = await post(draftBody(MAX_API_BODY_BYTES), true);
    expect(answer.body.error.code).toBe("repo_not_found");
  });
});
