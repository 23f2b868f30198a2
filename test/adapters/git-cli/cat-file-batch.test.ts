import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatFileBatch } from "../../../src/adapters/git-cli/cat-file-batch.js";
import { runGit } from "../../../src/adapters/git-cli/run-git.js";
import { makeRepo, type TestRepo } from "../../helpers/make-repo.js";

async function blobSha(dir: string, path: string): Promise<string> {
  const out = await runGit({ cwd: dir, args: ["rev-parse"], values: [`HEAD:${path}`] });
  return out.stdout.toString("latin1").trim();
}

describe("CatFileBatch", () => {
  let repo: TestRepo;
  const big = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) % 251;
  const binary = Buffer.from([0, 1, 2, 0, 10, 13, 0, 255, 10, 10]);
  const many = Array.from({ length: 500 }, (_, i) => `blob number ${i}\n${"x".repeat(i % 97)}\n`);

  beforeAll(async () => {
    const files: Record<string, string | Uint8Array> = {
      "empty.md": "",
      "big.bin": big,
      "binary.bin": binary,
    };
    many.forEach((text, i) => {
      files[`many/${i}.md`] = text;
    });
    repo = await makeRepo(files);
  });
  afterAll(() => repo.cleanup());

  it("reads many blobs pipelined, in order", async () => {
    const listing = await runGit({ cwd: repo.dir, args: ["ls-tree", "HEAD"], paths: ["many/"] });
    const byPath = new Map(
      listing.stdout
        .toString("utf8")
        .trim()
        .split("\n")
        .map((line) => [line.split("\t")[1], line.split(/\s+/)[2]] as const),
    );
    const shas = many.map((_, i) => byPath.get(`many/${i}.md`) ?? "");
    const batch = CatFileBatch.start(repo.dir, { window: 32 });
    try {
      const texts: string[] = [];
      for await (const object of batch.readMany(shas)) {
        expect(object.type).toBe("blob");
        texts.push(object.bytes.toString("utf8"));
      }
      expect(texts).toEqual(many);
    } finally {
      await batch.close();
    }
  });

  it("reads a 0-byte blob, a 1 MB blob and binary bytes with NUL exactly", async () => {
    const batch = CatFileBatch.start(repo.dir);
    try {
      const [empty, large, bin] = await Promise.all([
        batch.read(await blobSha(repo.dir, "empty.md")),
        batch.read(await blobSha(repo.dir, "big.bin")),
        batch.read(await blobSha(repo.dir, "binary.bin")),
      ]);
      expect(empty?.bytes.length).toBe(0);
      expect(large?.bytes.equals(big)).toBe(true);
      expect(bin?.bytes.equals(binary)).toBe(true);
    } finally {
      await batch.close();
    }
  });

  it("answers null for a missing sha and keeps going", async () => {
    const batch = CatFileBatch.start(repo.dir);
    try {
      const missing = "0123456789abcdef0123456789abcdef01234567";
      const emptySha = await blobSha(repo.dir, "empty.md");
      const [a, b] = await Promise.all([batch.read(missing), batch.read(emptySha)]);
      expect(a).toBeNull();
      expect(b?.bytes.length).toBe(0);
      await expect(batch.readMany([missing]).next()).rejects.toMatchObject({
        code: "git_failed",
      });
    } finally {
      await batch.close();
    }
  });

  it("refuses names that are not full hex object names", async () => {
    const batch = CatFileBatch.start(repo.dir);
    try {
      await expect(batch.read("HEAD\n--batch")).rejects.toMatchObject({ code: "invalid_input" });
    } finally {
      await batch.close();
    }
  });

  it("fails pending reads with git_failed when git is killed, and later reads too", async () => {
    const batch = CatFileBatch.start(repo.dir);
    const sha = await blobSha(repo.dir, "big.bin");
    const pending = Array.from({ length: 50 }, () => batch.read(sha));
    batch.kill();
    const results = await Promise.allSettled(pending);
    const rejected = results.filter((r) => r.status === "rejected");
    // Some answers may have arrived before the kill; the rest must reject, none may hang.
    for (const r of rejected) expect(r.reason).toMatchObject({ code: "git_failed" });
    await expect(batch.read(sha)).rejects.toMatchObject({ code: "git_failed" });
    await batch.close();
  });

  it("fails pending reads with git_failed when git stalls past the idle timeout", async () => {
    const batch = CatFileBatch.start(repo.dir, { idleTimeoutMs: 200 });
    const sha = await blobSha(repo.dir, "empty.md");
    expect((await batch.read(sha))?.bytes.length).toBe(0);
    process.kill(batch.pid as number, "SIGSTOP");
    await expect(batch.read(sha)).rejects.toMatchObject({
      code: "git_failed",
      message: expect.stringMatching(/no answer/),
    });
    await batch.close();
  });

  it("close is idempotent and later reads reject", async () => {
    const batch = CatFileBatch.start(repo.dir);
    await batch.close();
    await batch.close();
    await expect(batch.read("0123456789abcdef0123456789abcdef01234567")).rejects.toMatchObject({
      code: "git_failed",
    });
  });
});
