import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SnowballModule } from "../core/text/stem.js";
import {
  loadSnowballWithCodeCache,
  SNOWBALL_CACHE_NAME,
  snowballCacheFile,
} from "./snowball-code-cache.js";

const plain = createRequire(import.meta.url)("snowball-stemmers") as SnowballModule;
const WORDS = ["деплоями", "кэширование", "пишет", "deploying", "flames", "migrations", "релиз"];

/** The stems of both languages for {@link WORDS}. */
function stems(snowball: SnowballModule): string[] {
  const ru = snowball.newStemmer("russian");
  const en = snowball.newStemmer("english");
  return WORDS.flatMap((word) => [ru.stem(word), en.stem(word)]);
}

let dir: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "lore-snowball-cache-"));
  cache = join(dir, "lore", SNOWBALL_CACHE_NAME);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("snowballCacheFile", () => {
  it("is under $XDG_CACHE_HOME/lore when absolute, else ~/.cache/lore", () => {
    expect(snowballCacheFile({ XDG_CACHE_HOME: "/x/cache", HOME: "/home/u" })).toBe(
      join("/x/cache", "lore", SNOWBALL_CACHE_NAME),
    );
    expect(snowballCacheFile({ XDG_CACHE_HOME: "relative", HOME: "/home/u" })).toBe(
      join("/home/u", ".cache", "lore", SNOWBALL_CACHE_NAME),
    );
  });
});

describe("loadSnowballWithCodeCache", () => {
  it("stems as require does, writes the cache, then loads from it unchanged", () => {
    expect(stems(loadSnowballWithCodeCache(cache))).toEqual(stems(plain));
    const written = readFileSync(cache);
    expect(written.subarray(0, 15).toString()).toBe("lore-v8cache-1\n");
    const before = statSync(cache).mtimeMs;
    expect(stems(loadSnowballWithCodeCache(cache))).toEqual(stems(plain));
    // An accepted cache is not written again.
    expect(readFileSync(cache).equals(written)).toBe(true);
    expect(statSync(cache).mtimeMs).toBe(before);
  });

  it("a damaged, foreign or truncated cache stems as require does and is written anew", () => {
    loadSnowballWithCodeCache(cache);
    const good = readFileSync(cache);
    const header = good.subarray(0, good.indexOf(10, 15) + 1).toString();
    const flipped = Buffer.from(good);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 0xff;
    const damages = [
      flipped,
      good.subarray(0, good.length - 100),
      Buffer.concat([Buffer.from(header.replace(process.version, "v0.0.0")), good]),
      Buffer.from("lore-v8cache-1\n"),
      Buffer.alloc(0),
    ];
    for (const damage of damages) {
      writeFileSync(cache, damage);
      expect(stems(loadSnowballWithCodeCache(cache))).toEqual(stems(plain));
      expect(readFileSync(cache).subarray(0, 15).toString()).toBe("lore-v8cache-1\n");
      expect(readFileSync(cache).equals(damage)).toBe(false);
    }
  });

  it("a folder that cannot be created or written is ignored", () => {
    const blocked = join(dir, "file");
    writeFileSync(blocked, "");
    const inside = join(blocked, "lore", SNOWBALL_CACHE_NAME);
    expect(stems(loadSnowballWithCodeCache(inside))).toEqual(stems(plain));
    expect(readFileSync(blocked, "utf8")).toBe("");
  });
});

describe("a cache another user could have written", () => {
  it("is never used: one that others may write is replaced by a private one of this user", () => {
    loadSnowballWithCodeCache(cache);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    const good = readFileSync(cache);
    for (const mode of [0o666, 0o620, 0o602]) {
      chmodSync(cache, mode);
      const before = statSync(cache).ino;
      expect(stems(loadSnowballWithCodeCache(cache))).toEqual(stems(plain));
      // Treated as a miss: written anew (a new file), private, with the same content.
      expect(statSync(cache).ino).not.toBe(before);
      expect(statSync(cache).mode & 0o777).toBe(0o600);
      expect(readFileSync(cache).subarray(0, 15).equals(good.subarray(0, 15))).toBe(true);
    }
  });
});
