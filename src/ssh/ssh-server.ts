import type { AddressInfo } from "node:net";
import ssh2, { type AuthContext, type Connection, type ServerChannel, type Session } from "ssh2";
import type { Principal } from "../core/access/rights.js";
import { sshKeyBlobType } from "../core/access/ssh-key-blob.js";
import { isLoreError, LoreError } from "../core/errors/lore-error.js";
import { localeLang } from "../core/push/pusher-lang.js";
import {
  type GitPathRefusal,
  type GitSshCommand,
  needOf,
  parseGitSshCommand,
} from "../core/repos/git-service-path.js";
import type { GitServices } from "../ports/git-service.js";
import type { RepoRecord, ServerStore } from "../ports/server-store.js";
import { authorizeRepo } from "../services/access/authorize.js";
import { bareRepoPath } from "../services/access/hosted-repos.js";
import {
  fingerprintOf,
  keyBlobProblem,
  principalForKey,
  recheckKeyPrincipal,
} from "../services/access/ssh-keys.js";
import { indexAfterPush } from "../services/push/index-after-push.js";
import { hostKeyFingerprint, loadOrCreateHostKey } from "./host-key.js";

/** What the SSH server needs. */
export interface SshServerDeps {
  /** The server's records (users, SSH keys, repositories, grants). */
  store: ServerStore;
  /** The server's data folder: the host key, and the bare repositories under `repos/`. */
  dataDir: string;
  /** Address to listen on (`[server] host`). */
  host: string;
  /**
   * Port to listen on (`[server] ssh_port`). The caller does not start the server when the
   * setting is 0 (off); here 0 picks a free port (tests).
   */
  port: number;
  /** The bounded git processes (shared with git over HTTP); they carry the limits. */
  git: GitServices;
  /** Where failures go, one line each. Default: nowhere. */
  log?: (line: string) => void;
  /** Time a connection may take to authenticate, ms. Default 30 000. */
  authTimeoutMs?: number;
  /** As `GitHttpDeps.afterPush`: the index upkeep after a clean push, before the exit status. */
  afterPush?: (repo: RepoRecord) => Promise<void>;
}

/** A running SSH server. */
export interface RunningSshServer {
  /** The port it listens on. */
  port: number;
  /** The host key's fingerprint as OpenSSH shows it (`SHA256:…`, see `hostKeyFingerprint`). */
  fingerprint: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const GIT_PROTOCOL = /^[A-Za-z0-9=:,._-]{1,200}$/;

/**
 * Git over SSH (seed 004, team server; git over SSH) with the `ssh2` library: public-key
 * authentication only (the key's fingerprint names the user; the client's signature is
 * verified), then one exec per session of `git-upload-pack '<owner>/<name>.git'` or
 * `git-receive-pack '<owner>/<name>.git'` (the forms git sends) with the same rights as over
 * HTTP — fetch needs read, push write; a repository the user cannot read answers the same
 * "no repository" as a missing one. No shell, no pty, no subsystem (sftp), no port
 * forwarding, no agent or X11 forwarding, no environment except `GIT_PROTOCOL`; any other
 * command (`sh`, `ls`, `git-upload-pack --help`) gets a message with its code on stderr
 * (`ssh_command_refused`, `repo_not_found`, `forbidden`, `server_busy`) and exit status 1.
 * The key and its user are checked again at every exec, not only at authentication: one
 * removed meanwhile refuses the exec (`key_not_found`, `user_not_found`).
 * The git process gets the isolated environment with `LORE_PUSHER` and a time limit; a
 * closed channel kills it. The host key is `<data>/ssh_host_ed25519_key`, made on first start.
 *
 * @param deps - see {@link SshServerDeps}.
 * @returns the server once it listens.
 * @throws Error when the host key cannot be made or the port cannot be listened on
 *   (`EADDRINUSE` …).
 */
export async function startSshServer(deps: SshServerDeps): Promise<RunningSshServer> {
  const hostKey = loadOrCreateHostKey(deps.dataDir);
  const connections = new Set<Connection>();
  const server = new ssh2.Server({ hostKeys: [hostKey], ident: "lore" }, (client) => {
    connections.add(client);
    client.on("close", () => connections.delete(client));
    serveConnection(client, deps);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(deps.port, deps.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (error: Error) => deps.log?.(`ssh: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    fingerprint: hostKeyFingerprint(hostKey),
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of connections) client.end();
        server.close(() => resolve());
      }),
  };
}

/** One SSH connection: authentication, then sessions. */
function serveConnection(client: Connection, deps: SshServerDeps): void {
  let principal: Authenticated | undefined;
  const authTimer = setTimeout(() => client.end(), deps.authTimeoutMs ?? 30_000);
  client.on("error", (error) => deps.log?.(`ssh client: ${error.message}`));
  client.on("authentication", (ctx) => {
    authenticate(ctx, deps).then(
      (found) => {
        if (found === "query") ctx.accept();
        else if (found === undefined) ctx.reject(["publickey"]);
        else {
          principal = found;
          ctx.accept();
        }
      },
      (error: unknown) => {
        deps.log?.(`ssh authentication: ${String(error)}`);
        ctx.reject(["publickey"]);
      },
    );
  });
  client.on("ready", () => {
    clearTimeout(authTimer);
    const user = principal;
    if (user === undefined) {
      client.end();
      return;
    }
    const current = () => recheckKeyPrincipal(deps.store, user.fingerprint, user.principal.userId);
    client.on("session", (accept) => serveSession(accept(), current, deps));
    // Port forwarding, both ways, and Unix sockets: refused.
    client.on("tcpip", (_accept, reject) => reject());
    client.on("openssh.streamlocal", (_accept, reject) => reject());
    client.on("request", (_accept, reject) => reject?.());
  });
  client.on("close", () => clearTimeout(authTimer));
}

/** Who a connection authenticated as, and with which key (checked again at each exec). */
interface Authenticated {
  principal: Principal;
  /** `SHA256:…` of the key. */
  fingerprint: string;
}

/**
 * Checks one authentication attempt: only `publickey`; a key that passes the same check as
 * `lore key add` (`keyBlobProblem`: an RSA key under 2048 bits or a malformed one is refused
 * even when stored before that rule); a key whose fingerprint names a user; with a
 * signature, the signature must verify against that key.
 *
 * @returns the principal and key (signed and known), `query` (a known key offered without a
 *   signature: the client asks whether to sign), or undefined (refuse).
 */
async function authenticate(
  ctx: AuthContext,
  deps: SshServerDeps,
): Promise<Authenticated | "query" | undefined> {
  if (ctx.method !== "publickey") return undefined;
  const fingerprint = fingerprintOf(ctx.key.data);
  const problem = keyBlobProblem(sshKeyBlobType(ctx.key.data) ?? "", ctx.key.data);
  if (problem !== undefined) {
    deps.log?.(`ssh authentication: key ${fingerprint} refused: ${problem.en}`);
    return undefined;
  }
  const principal = await principalForKey(deps.store, fingerprint);
  if (principal === undefined) return undefined;
  const found: Authenticated = { principal, fingerprint };
  if (ctx.signature === undefined || ctx.blob === undefined) return "query";
  const key = ssh2.utils.parseKey(ctx.key.data);
  if (key instanceof Error) return undefined;
  const parsed = Array.isArray(key) ? key[0] : key;
  if (parsed === undefined) return undefined;
  return parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true ? found : undefined;
}

/**
 * One session: an env of GIT_PROTOCOL, then one exec; everything else refused.
 *
 * @param current - the connection's principal as the store has it now (see
 *   `recheckKeyPrincipal`); throws when the key or its user is gone.
 */
function serveSession(
  session: Session,
  current: () => Promise<Principal>,
  deps: SshServerDeps,
): void {
  let protocol: string | undefined;
  let lang: "en" | "ru" = "en";
  let said: "en" | "ru" | undefined;
  session.on("env", (accept, reject, info) => {
    if (info.key === "GIT_PROTOCOL" && GIT_PROTOCOL.test(info.val)) {
      protocol = info.val;
      accept?.();
      return;
    }
    // Not passed to git; only read for the language of Lore's own messages.
    if (/^(LANG|LC_ALL|LC_MESSAGES|LANGUAGE)$/.test(info.key)) {
      said = localeLang(info.val) ?? said;
      lang = said ?? "en";
    }
    reject?.();
  });
  session.on("pty", (_accept, reject) => reject?.());
  session.on("x11", (_accept, reject) => reject?.());
  session.on("auth-agent", (_accept, reject) => reject?.());
  session.on("subsystem", (_accept, reject) => reject?.());
  session.on("shell", (accept) => {
    refuse(accept(), new LoreError("ssh_command_refused", { command: "(a shell)" }), lang);
  });
  session.on("exec", (accept, _reject, info) => {
    const channel = accept();
    channel.on("error", () => {});
    current()
      .then((principal) =>
        runExec(channel, info.command, principal, { protocol, lang, said }, deps),
      )
      .catch((error: unknown) => {
        deps.log?.(`ssh exec: ${String(error)}`);
        refuse(channel, error, lang);
      });
  });
}

/** Writes a refusal on the channel's stderr with its code and ends it with exit status 1. */
function refuse(channel: ServerChannel, error: unknown, lang: "en" | "ru"): void {
  const lore = isLoreError(error)
    ? error
    : new LoreError("internal", { reason: "the git request failed" }, { cause: error });
  try {
    channel.stderr.write(`lore: ${lang === "ru" ? lore.text.ru : lore.text.en} [${lore.code}]\n`);
    channel.exit(1);
    channel.end();
  } catch {
    // The client closed the channel already.
  }
}

function commandError(refusal: GitPathRefusal, command: string): LoreError {
  if (refusal.kind === "invalid_repo_name") {
    return new LoreError("invalid_repo_name", {
      name: refusal.name,
      reason: refusal.reason.en,
      reason_ru: refusal.reason.ru,
    });
  }
  // Control characters of the command are not echoed back to the terminal.
  const shown = command.replace(/[^\x20-\x7e]/g, "?").slice(0, 120);
  return new LoreError("ssh_command_refused", { command: shown });
}

/** What the session's `env` requests asked for, before its exec. */
interface SessionAsked {
  /** `GIT_PROTOCOL`, checked. */
  protocol: string | undefined;
  /** The language of Lore's own messages on this channel. */
  lang: "en" | "ru";
  /** The language the client's locale named, if it sent one (for the hooks' report). */
  said: "en" | "ru" | undefined;
}

async function runExec(
  channel: ServerChannel,
  command: string,
  principal: Principal,
  asked: SessionAsked,
  deps: SshServerDeps,
): Promise<void> {
  const { protocol, lang, said } = asked;
  const parsed = parseGitSshCommand(command);
  if (!parsed.ok) {
    refuse(channel, commandError(parsed.refusal, command), lang);
    return;
  }
  const wanted: GitSshCommand = parsed.command;
  let repo: RepoRecord;
  try {
    repo = await authorizeRepo(deps.store, principal, wanted.fullName, needOf(wanted.service));
  } catch (error) {
    refuse(channel, error, lang);
    return;
  }
  const closed = new AbortController();
  channel.once("close", () => closed.abort());
  let git: Awaited<ReturnType<GitServices["start"]>>;
  try {
    git = await deps.git.start(
      {
        kind: wanted.service,
        repoDir: bareRepoPath(deps.dataDir, repo.fullName),
        pusher: principal.user,
        ...(protocol === undefined ? {} : { protocol }),
        ...(said === undefined ? {} : { lang: said }),
      },
      closed.signal,
    );
  } catch (error) {
    if (!closed.signal.aborted) refuse(channel, error, lang);
    return;
  }
  if (closed.signal.aborted) {
    git.kill();
    return;
  }
  channel.once("close", () => git.kill());
  channel.pipe(git.stdin);
  git.stdout.pipe(channel, { end: false });
  git.stderr.pipe(channel.stderr, { end: false });
  const end = await git.done;
  if (!end.timedOut && end.code === 0 && wanted.service === "git-receive-pack") {
    await indexAfterPush(deps, repo);
  }
  try {
    if (end.timedOut) {
      deps.log?.(
        `git over SSH ${repo.fullName}: ${wanted.service} ran past the server's time limit and was stopped; exit status 1`,
      );
      const error = new LoreError("git_failed", {
        reason: "git ran past the server's time limit and was stopped",
      });
      channel.stderr.write(`lore: ${lang === "ru" ? error.text.ru : error.text.en} (git_failed)\n`);
    }
    channel.exit(end.code ?? 1);
    channel.end();
  } catch {
    // The client closed the channel already.
  }
}
