import { describe, expect, it } from "vitest";
import { deliveryBatches } from "./delivery-batches.js";
import { DELIVERY_BATCH_BYTES } from "./draft.js";

const file = (n: number, bytes: number) => ({
  path: `.gitriver/knowledge/${String(n).padStart(4, "0")}.md`,
  content: "x".repeat(bytes),
});

describe("deliveryBatches", () => {
  it("cuts 12 MB of 60 KB files into two batches of at most 10 MiB, in id order", () => {
    const files = Array.from({ length: 205 }, (_, i) => file(204 - i, 60 * 1024));
    const batches = deliveryBatches(files);
    expect(batches).toHaveLength(2);
    const sizes = batches.map((b) => b.reduce((sum, f) => sum + f.content.length, 0));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(DELIVERY_BATCH_BYTES);
    // 10 MiB / 60 KiB = 170.67: the first batch holds 170 files, the rest 35.
    expect(batches.map((b) => b.length)).toEqual([170, 35]);
    const paths = batches.flat().map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
  });

  it("counts UTF-8 bytes, not characters", () => {
    const batches = deliveryBatches(
      [file(1, 0), file(2, 0)].map((f, i) => ({ ...f, content: "й".repeat(3 + i) })),
      10,
    );
    expect(batches.map((b) => b.length)).toEqual([1, 1]);
  });

  it("gives a file larger than the limit a batch of its own, never refuses", () => {
    expect(deliveryBatches([file(1, 5), file(2, 20), file(3, 5)], 10).map((b) => b.length)).toEqual(
      [1, 1, 1],
    );
    expect(deliveryBatches([])).toEqual([]);
  });
});
