/**
 * nginx in front of several `lore serve` processes (scale-out, "Several servers": three
 * servers behind nginx), for the three-servers test and `npm run bench:multiserve`: the
 * Debian `nginx` binary started on 127.0.0.1 with a configuration and a prefix (`-p`) of its
 * own in a temp folder, `daemon off`, one upstream of the given ports with keep-alive
 * connections, and stopped again. Nothing is written outside that folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { delimiter, join } from "node:path";

/** The nginx binary: the first `nginx` on PATH, else `/usr/sbin/nginx`; undefined when none. */
export function findNginx(path = process.env.PATH ?? ""): string | undefined {
  for (const dir of [...path.split(delimiter).filter((d) => d !== ""), "/usr/sbin"]) {
    const file = join(dir, "nginx");
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** A free TCP port on 127.0.0.1 (bound once and released: another process may take it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The part of the configuration a deployment writes (the README's "Several servers behind
 * nginx" shows it for ports 7377–7379 behind 127.0.0.1:8080; `nginx-front.test.ts` checks
 * they are the same): one upstream `lore` of `upstreams` (ports on 127.0.0.1) with 64 idle
 * keep-alive connections per worker, kept 60 s (under the server's 65 s
 * `keepAliveTimeout`, so nginx never reuses a connection Node is closing); a server that
 * refuses a connection is skipped for 5 s (`max_fails=1 fail_timeout=5s`) and the request
 * goes to the next (`proxy_next_upstream error timeout`: nginx passes a POST on only when
 * it was not sent yet, so no write is made twice); bodies up to 10 MB; answers not
 * buffered (the MCP stream).
 *
 * @param options - `listen`: nginx's own address (`127.0.0.1:8080`); `upstreams`: the
 *   servers' ports on 127.0.0.1.
 */
export function nginxSite(options: { listen: string; upstreams: readonly number[] }): string {
  const servers = options.upstreams
    .map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`)
    .join("\n");
  return `upstream lore {
${servers}
    keepalive 64;
    keepalive_timeout 60s;
}
server {
    listen ${options.listen};
    client_max_body_size 10m;
    location / {
        proxy_pass http://lore;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_buffering off;
        proxy_read_timeout 600s;
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 3;
    }
}
`;
}

/**
 * The whole configuration the test's nginx runs with: {@link nginxSite} inside `http`, in
 * the foreground, one worker, its pid, logs and temp paths in `prefix`; the access log
 * (`<prefix>/access.log`) has one line per request, `|`-separated: the time it was logged
 * (s since the epoch, ms precision), the status, the upstream(s) tried (`$upstream_addr`:
 * `127.0.0.1:7381, 127.0.0.1:7382` when nginx passed it on), their statuses, the method,
 * the path and the request's time (s) — {@link readAccessLog} parses it.
 *
 * @param options - `prefix`: the temp folder; `port`: nginx's own port on 127.0.0.1;
 *   `upstreams`: the servers' ports; `user`: the `user` line when run as root (workers as
 *   that user).
 */
export function nginxConfig(options: {
  prefix: string;
  port: number;
  upstreams: readonly number[];
  user?: string;
}): string {
  const p = options.prefix;
  return `${options.user === undefined ? "" : `user ${options.user};\n`}daemon off;
worker_processes 1;
pid ${p}/nginx.pid;
error_log ${p}/error.log warn;
events { worker_connections 4096; }
http {
log_format lore '$msec|$status|$upstream_addr|$upstream_status|$request_method|$uri|$request_time';
access_log ${p}/access.log lore;
client_body_temp_path ${p}/client_body;
proxy_temp_path ${p}/proxy;
fastcgi_temp_path ${p}/fastcgi;
uwsgi_temp_path ${p}/uwsgi;
scgi_temp_path ${p}/scgi;
${nginxSite({ listen: `127.0.0.1:${options.port}`, upstreams: options.upstreams })}}
`;
}

/** One line of the access log of {@link nginxConfig}. */
export interface AccessLine {
  /** When nginx logged it (the answer's end), ms since the epoch. */
  at: number;
  /** The status nginx answered the client. */
  status: number;
  /**
   * The upstream ports tried, in order (`[7382, 7381]`: the first failed, the second
   * answered); empty when no upstream was tried.
   */
  upstreams: number[];
  /** Their statuses as nginx logs them (`"502"`, `"-"` for none). */
  upstreamStatuses: string[];
  method: string;
  path: string;
  /** The request's time in nginx, ms. */
  ms: number;
}

/**
 * Parses an access log of {@link nginxConfig}'s `lore` format; lines of another shape are
 * skipped.
 *
 * @param text - the log's text.
 */
export function readAccessLog(text: string): AccessLine[] {
  const lines: AccessLine[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split("|");
    if (fields.length !== 7) continue;
    const [msec, status, addr, ustatus, method, path, time] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    // `$upstream_addr` separates tries with ", " and internal redirects with " : ".
    const split = (value: string) => value.split(/, | : /).filter((v) => v !== "" && v !== "-");
    lines.push({
      at: Math.round(Number(msec) * 1000),
      status: Number(status),
      upstreams: split(addr).map((a) => Number(a.slice(a.lastIndexOf(":") + 1))),
      upstreamStatuses: ustatus.split(/, | : /),
      method,
      path,
      ms: Math.round(Number(time) * 1000),
    });
  }
  return lines;
}

/** A running nginx. */
export interface RunningNginx {
  /** `http://127.0.0.1:<port>`. */
  base: string;
  port: number;
  child: ChildProcess;
  /** Its error log so far. */
  errorLog(): string;
  /** Its access log so far, parsed ({@link readAccessLog}). */
  accessLog(): AccessLine[];
  /** SIGQUIT (graceful) and wait for the exit; SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/**
 * Starts `nginx -p <prefix> -c <prefix>/nginx.conf -e <prefix>/error.log` in the
 * foreground and waits until it answers on its port.
 *
 * @param options - `prefix`: a temp folder of its own (made); `upstreams`: the servers'
 *   ports; `nginx`: the binary ({@link findNginx} by default).
 * @throws Error when there is no nginx, or it exits or does not answer within 10 s (its
 *   error log in the message).
 */
export async function startNginx(options: {
  prefix: string;
  upstreams: readonly number[];
  nginx?: string;
}): Promise<RunningNginx> {
  const binary = options.nginx ?? findNginx();
  if (binary === undefined) throw new Error("nginx is not installed (apt-get install -y nginx)");
  const prefix = options.prefix;
  mkdirSync(prefix, { recursive: true });
  const port = await freePort();
  const root = process.getuid?.() === 0;
  const conf = join(prefix, "nginx.conf");
  writeFileSync(
    conf,
    nginxConfig({
      prefix,
      port,
      upstreams: options.upstreams,
      ...(root ? { user: userInfo().username } : {}),
    }),
  );
  const log = join(prefix, "error.log");
  const errorLog = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  const access = join(prefix, "access.log");
  const accessLog = () => (existsSync(access) ? readAccessLog(readFileSync(access, "utf8")) : []);
  const child = spawn(binary, ["-p", prefix, "-c", conf, "-e", log], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`nginx exited ${child.exitCode}: ${stderr}${errorLog()}`);
    }
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.status > 0,
      () => false,
    );
    if (up) break;
    if (Date.now() - started > 10_000) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not answer on ${base}: ${stderr}${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    base,
    port,
    child,
    errorLog,
    accessLog,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGQUIT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await closed;
      clearTimeout(timer);
    },
  };
}
