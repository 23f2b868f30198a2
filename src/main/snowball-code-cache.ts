/**
 * The Snowball stemmers' compiled code, kept between processes (section "Speed where users
 * feel it": a one-shot `lore recall` and the first answer of `lore mcp`). The package is one
 * 850 KB CommonJS file with every language; compiling it on the first stemmed word cost
 * ~20 ms of CPU of every such process, and Node 20 has no compile cache of its own
 * (`module.enableCompileCache` is Node 22). This module loads the file through
 * `vm.Script` with V8's code cache (what the `v8-compile-cache` package does for
 * `require`): ~8 ms with the cache, measured with `process.cpuUsage` on the bench machine.
 *
 * The cache file is `$XDG_CACHE_HOME/lore/snowball-stemmers.v8cache` (default `~/.cache`),
 * like the agent hook's settings cache (`hook-settings-cache.ts`). It is used only when its
 * header names the same Node version and architecture, the same source file with the same
 * size and modification time, and the SHA-256 of its payload matches; V8 then checks its own
 * version and flags and may still reject it. Any miss — no file, another source, a damaged
 * or rejected payload — compiles the source as `require` would and writes a fresh cache
 * (atomically: a temporary file, then a rename); a folder that cannot be read or written
 * is ignored. The module's exports are the same either way: the very same source runs.
 *
 * V8 runs a cache's compiled code after checking little more than the source's length, so
 * a cache file is code: one that another user owns or may write (group or others write bit)
 * is never used, as the trust file is refused when others can write it; it is replaced by
 * one of this user's, written with mode 0600 under a temporary name no one can guess.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { Script } from "node:vm";
import type { SnowballModule } from "../core/text/stem.js";

/** The cache file's name inside the cache folder. */
export const SNOWBALL_CACHE_NAME = "snowball-stemmers.v8cache";

/** Marks the start of the header: a file that does not start with it is not a cache. */
const MAGIC = "lore-v8cache-1\n";

/**
 * The cache file: `$XDG_CACHE_HOME/lore/snowball-stemmers.v8cache` (default
 * `~/.cache/lore/…`; `XDG_CACHE_HOME` counts only when absolute, as the XDG spec says).
 *
 * @param env - the environment (`XDG_CACHE_HOME`, `HOME`).
 */
export function snowballCacheFile(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".cache");
  return join(base, "lore", SNOWBALL_CACHE_NAME);
}

/** What the cache must have been made from: Node, architecture, the source's path, size, mtime. */
function sourceKey(source: string): string {
  const info = statSync(source);
  return JSON.stringify([process.version, process.arch, source, info.size, info.mtimeMs]);
}

/**
 * The payload of `cacheFile` when its header matches `key` and the payload its SHA-256;
 * undefined otherwise (no file, unreadable, another source, damaged).
 */
function readCache(cacheFile: string, key: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    const fd = openSync(cacheFile, "r");
    try {
      if (!ownedAndPrivate(fstatSync(fd))) return undefined;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // Header: MAGIC, the key's line, the payload's SHA-256 in hex and a newline, then the payload.
  const keyEnd = bytes.indexOf(10, MAGIC.length);
  if (keyEnd < 0 || bytes.subarray(0, MAGIC.length).toString("latin1") !== MAGIC) return undefined;
  if (bytes.subarray(MAGIC.length, keyEnd).toString("utf8") !== key) return undefined;
  const sumEnd = keyEnd + 1 + 64;
  if (bytes[sumEnd] !== 10) return undefined;
  const payload = bytes.subarray(sumEnd + 1);
  const sum = bytes.subarray(keyEnd + 1, sumEnd).toString("latin1");
  return createHash("sha256").update(payload).digest("hex") === sum ? payload : undefined;
}

/** A regular file of this process's user that no one else may write (see the module header). */
function ownedAndPrivate(info: { uid: number; mode: number; isFile(): boolean }): boolean {
  const uid = process.getuid?.();
  return info.isFile() && (uid === undefined || info.uid === uid) && (info.mode & 0o022) === 0;
}

/**
 * Writes the cache atomically (a new file of mode 0600 under a random name, never through a
 * link, then a rename); any failure (read-only or missing folder, full disk) is ignored.
 */
function writeCache(cacheFile: string, key: string, payload: Buffer): void {
  const temp = `${cacheFile}.${randomBytes(8).toString("hex")}.tmp`;
  try {
    mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
    const sum = createHash("sha256").update(payload).digest("hex");
    writeFileSync(temp, Buffer.concat([Buffer.from(`${MAGIC}${key}\n${sum}\n`), payload]), {
      flag: "wx",
      mode: 0o600,
    });
    renameSync(temp, cacheFile);
  } catch {
    // The cache is an optimisation only: without it the stemmers compile as before.
    try {
      unlinkSync(temp);
    } catch {
      // Not made, or already renamed.
    }
  }
}

/**
 * Loads the `snowball-stemmers` package through V8's code cache in `cacheFile` (see the
 * module header): the package's exports, as `require("snowball-stemmers")` gives them.
 * When the cache was missing, stale, damaged or rejected, the stemmers of both languages
 * Lore uses stem one word each (so that the functions they run are in the cache too) and
 * a fresh cache is written.
 *
 * @param cacheFile - from {@link snowballCacheFile}.
 * @throws the errors of `require` itself when the package cannot be found or run (a cache
 *   problem never throws).
 */
export function loadSnowballWithCodeCache(cacheFile: string): SnowballModule {
  const require = createRequire(import.meta.url);
  const source = require.resolve("snowball-stemmers");
  let key: string;
  let text: string;
  try {
    key = sourceKey(source);
    text = readFileSync(source, "utf8");
  } catch {
    return require(source) as SnowballModule;
  }
  const cached = readCache(cacheFile, key);
  // The wrapper `require` itself gives a CommonJS file (`module.wrap` of Node).
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${text}\n});`;
  const script = new Script(wrapped, {
    filename: source,
    ...(cached === undefined ? {} : { cachedData: cached }),
  });
  const init = script.runInThisContext() as (
    exports: object,
    require: NodeRequire,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const module = { exports: {} as object };
  init.call(module.exports, module.exports, createRequire(source), module, source, dirname(source));
  const snowball = module.exports as SnowballModule;
  if (cached === undefined || script.cachedDataRejected === true) {
    snowball.newStemmer("russian").stem("деплоями");
    snowball.newStemmer("english").stem("deploying");
    writeCache(cacheFile, key, script.createCachedData());
  }
  return snowball;
}
