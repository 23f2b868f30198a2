import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BoundedStdioServerTransport } from "./bounded-stdio-transport.js";

/** A stdout that takes one chunk at a time and holds each until `release` is called. */
function slowStdout(): { stdout: Writable; written: string[]; release: () => void } {
  const written: string[] = [];
  const held: (() => void)[] = [];
  const stdout = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString("utf8"));
      held.push(done);
    },
  });
  const release = () => {
    for (const done of held.splice(0)) done();
  };
  return { stdout, written, release };
}

describe("BoundedStdioServerTransport on a full stdout", () => {
  it("waits on one drain listener however many answers wait, and sends them all in order", async () => {
    const { stdout, written, release } = slowStdout();
    const transport = new BoundedStdioServerTransport(new PassThrough(), stdout);
    const sends = Array.from({ length: 30 }, (_, i) =>
      transport.send({ jsonrpc: "2.0", id: i, result: {} }),
    );
    expect(stdout.listenerCount("drain")).toBeLessThanOrEqual(1);
    let all = false;
    const done = Promise.all(sends).then(() => {
      all = true;
    });
    while (!all) {
      release();
      await new Promise((tick) => setImmediate(tick));
      expect(stdout.listenerCount("drain")).toBeLessThanOrEqual(1);
    }
    await done;
    release();
    expect(written.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
  });
});
