/**
 * Layered configuration and trusted folders: a project's `lore.toml` over the user's own
 * file, key by key; an untrusted project file sets only `lang` and `index.repos` inside
 * the project; the forge, the server's address and the data paths come from the user's
 * file unless the folder is trusted.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfigReader, loadSettings } from "./load-config.js";
import { readTrustedFolders, setFolderTrust, trustFilePath } from "./trust-store.js";

let root: string;
let home: string;
let project: string;
let userFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "lore-trust-"));
  home = join(root, "home");
  project = join(root, "clone");
  mkdirSync(join(home, ".config", "lore"), { recursive: true });
  mkdirSync(project, { recursive: true });
  userFile = join(home, ".config", "lore", "lore.toml");
  writeFileSync(
    userFile,
    [
      "[forge]",
      'url = "http://127.0.0.1:3000"',
      "[server]",
      'host = "127.0.0.1"',
      "[knowledge]",
      "primary = '~/notes'",
      "[[knowledge.read_only]]",
      'id = "group"',
      "path = '~/group'",
      "",
    ].join("\n"),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({ HOME: home, LORE_USER: "tester" });

const HOSTILE = [
  'lang = "ru"',
  'user = "mallory"',
  "[forge]",
  'url = "http://127.0.0.1:4000"',
  "[server]",
  'host = "0.0.0.0"',
  "port = 80",
  "data = '/tmp/mallory-server'",
  "[index]",
  "database = '/tmp/elsewhere.db'",
  "repos = ['.', '../other']",
  "[knowledge]",
  "primary = '/tmp/mallory-notes'",
  "",
].join("\n");

// The file reader is loaded on demand (as the CLI does when a file exists).
beforeAll(loadConfigReader);

describe("a project file in a folder that is not trusted", () => {
  it("keeps the user's forge, server, data paths and roots; applies lang; says what was ignored", () => {
    writeFileSync(join(project, "lore.toml"), HOSTILE);
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.forge?.config.url).toBe("http://127.0.0.1:3000");
    expect(settings.server).toEqual({
      host: "127.0.0.1",
      port: 7377,
      data: join(home, ".local", "share", "lore", "server"),
      sshPort: 7378,
    });
    expect(settings.database).toBe(join(home, ".local", "share", "lore", "index.db"));
    expect(settings.user).toBe("tester");
    expect(settings.lang).toBe("ru");
    expect(settings.repos).toEqual([]);
    expect(settings.roots?.map((r) => [r.id, r.path])).toEqual([
      ["primary", join(home, "notes")],
      ["group", join(home, "group")],
    ]);
    expect(settings.ignored?.map((i) => [i.key, i.reason])).toEqual([
      ["user", "untrusted"],
      ["index.database", "untrusted"],
      ["index.repos", "outside_project"],
      ["server.host", "untrusted"],
      ["server.port", "untrusted"],
      ["server.data", "untrusted"],
      ["knowledge.primary", "untrusted"],
      ["forge.url", "untrusted"],
    ]);
    const notice = settings.notices?.[0];
    expect(notice?.code).toBe("project_config_untrusted");
    expect(notice?.text.en).toContain(
      `${join(project, "lore.toml")} sets user, index.database, server.host, server.port, server.data, knowledge.primary, forge.url, which a project file may set only in a trusted folder; ignored (to use them: lore trust ${project})`,
    );
    expect(notice?.text.ru).toContain("пропущены");
    expect(settings.origins?.find((o) => o.key === "forge.url")).toMatchObject({
      file: userFile,
      kind: "user",
    });
    expect(settings.origins?.find((o) => o.key === "lang")).toMatchObject({
      file: join(project, "lore.toml"),
      kind: "project",
    });
  });

  it("index.repos inside the project folder is applied", () => {
    writeFileSync(join(project, "lore.toml"), "[index]\nrepos = ['.', 'sub']\n");
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.repos).toEqual([project, join(project, "sub")]);
    expect(settings.notices).toBeUndefined();
  });

  it("index.repos through a link that leads out of the project is ignored", () => {
    mkdirSync(join(root, "private-repo"));
    symlinkSync(join(root, "private-repo"), join(project, "inside-looking"));
    writeFileSync(join(project, "lore.toml"), "[index]\nrepos = ['inside-looking']\n");
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.repos).toEqual([]);
    expect(settings.ignored?.map((i) => [i.key, i.reason])).toEqual([
      ["index.repos", "outside_project"],
    ]);
    expect(settings.notices?.[0]?.text.en).toContain(
      "index.repos leads outside the project folder",
    );
  });

  it("the user's knowledge roots do not vanish when a project file exists", () => {
    writeFileSync(join(project, "lore.toml"), 'lang = "en"\n');
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.roots?.map((r) => r.id)).toEqual(["primary", "group"]);
  });
});

describe("a trusted folder", () => {
  it("its project file counts in full, key by key over the user's", () => {
    writeFileSync(join(project, "lore.toml"), HOSTILE);
    expect(setFolderTrust(env(), project, true)).toBe(true);
    expect(setFolderTrust(env(), project, true)).toBe(false);
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.forge?.config.url).toBe("http://127.0.0.1:4000");
    expect(settings.server).toEqual({
      host: "0.0.0.0",
      port: 80,
      data: "/tmp/mallory-server",
      sshPort: 7378,
    });
    expect(settings.user).toBe("mallory");
    expect(settings.repos).toEqual([project, join(root, "other")]);
    // Key by key: the user's read-only root stays, the project's primary replaces the user's.
    expect(settings.roots?.map((r) => [r.id, r.path])).toEqual([
      ["primary", "/tmp/mallory-notes"],
      ["group", join(home, "group")],
    ]);
    expect(settings.ignored).toEqual([]);
    expect(settings.configFiles).toEqual([
      { kind: "user", file: userFile, trusted: true },
      { kind: "project", file: join(project, "lore.toml"), trusted: true },
    ]);
  });

  it("trust is keyed by the real path: a moved folder is not trusted, a link to it is", () => {
    writeFileSync(join(project, "lore.toml"), HOSTILE);
    setFolderTrust(env(), project, true);
    const link = join(root, "link");
    symlinkSync(project, link);
    expect(loadSettings({ cwd: link, env: env() }).server.host).toBe("0.0.0.0");
    const moved = join(root, "moved");
    renameSync(project, moved);
    const settings = loadSettings({ cwd: moved, env: env() });
    expect(settings.server.host).toBe("127.0.0.1");
    expect(settings.notices?.[0]?.code).toBe("project_config_untrusted");
  });

  it("a trust file others can write is not honoured, and says so", () => {
    writeFileSync(join(project, "lore.toml"), HOSTILE);
    setFolderTrust(env(), project, true);
    chmodSync(trustFilePath(env()), 0o666);
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.server.host).toBe("127.0.0.1");
    expect(settings.notices?.map((n) => n.code)).toEqual([
      "trust_file_ignored",
      "project_config_untrusted",
    ]);
    expect(() => setFolderTrust(env(), join(root, "home"), true)).toThrow(
      expect.objectContaining({ code: "config_invalid" }),
    );
  });

  it("a damaged trust file trusts nothing, and lore trust does not overwrite it", () => {
    mkdirSync(join(home, ".local", "share", "lore"), { recursive: true });
    writeFileSync(trustFilePath(env()), "{not json");
    expect(readTrustedFolders(env()).problem?.reason).toBe("unreadable");
    expect(() => setFolderTrust(env(), project, true)).toThrow(
      expect.objectContaining({ code: "config_invalid" }),
    );
  });
});

describe("files that cannot be used", () => {
  it.skipIf(!existsSync("/proc/self/mem"))(
    "an unreadable user file is config_invalid naming it, not internal",
    () => {
      // /proc/self/mem is a regular file whose read fails (EIO) even for root, where a
      // chmod 000 file would still be readable.
      const unreadable = { ...env(), LORE_CONFIG: "/proc/self/mem" };
      expect(() => loadSettings({ cwd: project, env: unreadable })).toThrow(
        expect.objectContaining({
          code: "config_invalid",
          message: "configuration error: /proc/self/mem cannot be read (EIO)",
        }),
      );
    },
  );

  it("a project lore.toml that is a symbolic link to the user's own file counts once", () => {
    symlinkSync(userFile, join(project, "lore.toml"));
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.configFiles?.map((f) => f.kind)).toEqual(["user"]);
    expect(settings.notices).toBeUndefined();
  });

  it("a project lore.toml that links to a file elsewhere is still a project file", () => {
    const elsewhere = join(root, "elsewhere.toml");
    writeFileSync(elsewhere, '[server]\nhost = "0.0.0.0"\n');
    symlinkSync(elsewhere, join(project, "lore.toml"));
    const settings = loadSettings({ cwd: project, env: env() });
    expect(settings.server.host).toBe("127.0.0.1");
    expect(settings.ignored?.map((i) => i.key)).toEqual(["server.host"]);
  });
});
