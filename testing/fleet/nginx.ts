/**
 * nginx in front of the instances: the start of the reference deployment
 * (docs/operations.md, "The reference deployment: nginx in front"). Debian's
 * nginx (scripts/ensure-nginx.sh), run as whoever starts it, in the foreground,
 * on a config generated here into a directory of its own (pid file, logs,
 * temp files), so it needs no root, no port below 1024 and nothing of the
 * system's /etc/nginx. Not part of the server: the smoke test and the fleet
 * script run it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { killOnExit } from '../kill-on-exit';
import { waitForOk } from '../wait-for-ok';

export interface NginxSite {
  /** The directory nginx owns: its config, pid file, logs and temp files go here. */
  dir: string;
  /** Where nginx listens (a loopback address, for a fleet on one machine). */
  listen: { host: string; port: number };
  /** The instances, `host:port` each; every request may go to any of them (no stickiness: they share the store). */
  upstreams: readonly string[];
  /**
   * The one instance that also runs the demo store (DEMO=on), `host:port`: its
   * page, its orders and its webhook receiver go there. The demo stands for a
   * merchant's own server, which keeps its orders in its memory; the
   * instances behind it share nothing of that.
   */
  demoStore?: string;
  /**
   * Instances taken out (`down`) for a rolling restart: nginx sends them no
   * new request; they stay listed, so the upstream keeps its shape.
   */
  down?: readonly string[];
}

/** Where it writes what nginx did with each request; `$upstream_addr` lists every instance tried, so a retry shows as a comma. */
export const accessLogOf = (site: Pick<NginxSite, 'dir'>) => join(site.dir, 'access.log');

/**
 * The shopper's and the merchant's writes that are idempotent per session
 * (docs/operations.md, "Which requests nginx retries"): the session admits one
 * payment attempt at a time and one hold, so the same request sent again on
 * another instance finds it in progress or done and charges nothing twice.
 */
export const SESSION_IDEMPOTENT_WRITES = /^\/api\/sessions\/[^/]+\/(pay|authenticate|capture|release)$/;

/**
 * The config. Retries (`proxy_next_upstream error timeout`): a request whose
 * connection failed, or that an instance dropped, goes to the next instance,
 * except a POST already sent (nginx does not replay non-idempotent requests
 * unless told `non_idempotent`); only SESSION_IDEMPOTENT_WRITES are told so.
 * Session creation and refunds are not: nginx cannot tell whether the
 * merchant sent an Idempotency-Key, and the merchant's own retry under its key
 * is the safe one. An instance that refuses connections is left alone for
 * `fail_timeout` (a crash); one being restarted is marked `down` first.
 */
export function nginxConfig(site: NginxSite): string {
  const path = (name: string) => join(site.dir, name);
  const upstreams = site.upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=5s${site.down?.includes(address) ? ' down' : ''};`).join('\n');
  // Started as root, nginx's workers would switch to `nobody` and lose the directory; otherwise the directive is ignored with a warning.
  const demoUpstream = site.demoStore ? `  upstream demo_store {\n    server ${site.demoStore};\n    keepalive 8;\n  }\n` : '';
  const demoLocations = site.demoStore ? ['= /', '/demo/'].map((path) => `    location ${path} {\n      proxy_pass http://demo_store;\n    }\n`).join('') : '';
  const user = process.getuid?.() === 0 ? `user ${userInfo().username};\n` : '';
  return `${user}worker_processes 1;
daemon off;
pid ${path('nginx.pid')};
error_log ${path('error.log')} warn;
events { worker_connections 1024; }
http {
  log_format upstream '$remote_addr [$time_iso8601] "$request_method $uri $server_protocol" $status upstream=$upstream_addr upstream_status=$upstream_status request_time=$request_time';
  access_log ${accessLogOf(site)} upstream;
  client_body_temp_path ${path('client_body')};
  proxy_temp_path ${path('proxy')};
  fastcgi_temp_path ${path('fastcgi')};
  uwsgi_temp_path ${path('uwsgi')};
  scgi_temp_path ${path('scgi')};
  upstream wallet_checkout {
${upstreams}
    keepalive 32;
  }
${demoUpstream}  server {
    listen ${site.listen.host}:${site.listen.port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    # The instances run with TRUST_PROXY naming this proxy: this header is then the shopper's address for rate limits.
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_next_upstream error timeout;
    # The instances compress JSON and HTML themselves, and leave uncompressed every reply that carries a
    # secret (server/http/compression.ts: BREACH, docs/decisions.md). nginx passes Accept-Encoding up
    # and their encoding down; its own gzip would compress those secrets, so it stays off.
    gzip off;
    location / {
      proxy_pass http://wallet_checkout;
    }
    location ~ ${SESSION_IDEMPOTENT_WRITES.source.replaceAll('\\/', '/')} {
      proxy_pass http://wallet_checkout;
      proxy_next_upstream error timeout non_idempotent;
    }
${demoLocations}  }
}
`;
}

/** NGINX_PATH, Debian's /usr/sbin/nginx, or nginx on PATH; undefined: not installed (scripts/ensure-nginx.sh installs it). */
export function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'nginx'))];
  return candidates.find((candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate));
}

/** Every run names its prefix, config and error log, so nginx touches nothing outside the site's directory (not even /var/log/nginx at start). */
const argsFor = (site: NginxSite) => ['-p', site.dir, '-e', join(site.dir, 'error.log'), '-c', join(site.dir, 'nginx.conf')];

/** Writes the site's config and has nginx check it (`nginx -t`); rejects with nginx's own explanation. */
export async function writeNginxConfig(binary: string, site: NginxSite): Promise<void> {
  writeFileSync(join(site.dir, 'nginx.conf'), nginxConfig(site));
  await promisify(execFile)(binary, ['-t', '-q', ...argsFor(site)]);
}

/** How long nginx may take to answer once started; it normally does within milliseconds. */
const NGINX_START_TIMEOUT_MS = 10_000;

/** Resolves once nginx answers `path` (through to an instance), or rejects with nginx's error log. */
export async function waitForNginx(proxy: RunningNginx, site: Pick<NginxSite, 'dir'>, path = '/healthz'): Promise<void> {
  await waitForOk(`${proxy.url}${path}`, NGINX_START_TIMEOUT_MS, () => `nginx's error log:\n${readFileSync(join(site.dir, 'error.log'), 'utf8')}`);
}

export interface RunningNginx {
  readonly url: string;
  /**
   * Writes the site's config, checks it, has nginx load it (SIGHUP, as `nginx
   * -s reload`: new workers on the new config, the old ones finish the
   * requests they hold and exit) and resolves once every old worker has
   * exited: from then on no request goes where the old config sent it.
   */
  reload(site: NginxSite): Promise<void>;
  /** Graceful (SIGQUIT: requests in flight finish), then resolves once nginx has exited. */
  stop(): Promise<void>;
}

/** How long the old workers may take to finish their requests after a reload: a payment waits on the service for seconds at most. */
const OLD_WORKERS_TIMEOUT_MS = 60_000;

/** The master's worker processes, by pid (Linux: /proc's children list). */
const workersOf = (masterPid: number): Set<string> =>
  new Set(readFileSync(`/proc/${masterPid}/task/${masterPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean));

/** Starts nginx on a site whose config writeNginxConfig wrote; it listens once `nginx -t` passed, but the caller checks it answers. */
export function startNginx(binary: string, site: NginxSite): RunningNginx {
  const proc: ChildProcess = spawn(binary, argsFor(site), { stdio: 'ignore' });
  // A caller that throws or is interrupted must not leave nginx running.
  killOnExit(proc);
  return {
    url: `http://${site.listen.host}:${site.listen.port}`,
    async reload(next) {
      await writeNginxConfig(binary, next);
      const master = proc.pid!;
      const old = workersOf(master);
      proc.kill('SIGHUP');
      const deadline = Date.now() + OLD_WORKERS_TIMEOUT_MS;
      for (;;) {
        const workers = workersOf(master);
        if (workers.size > 0 && ![...workers].some((pid) => old.has(pid))) return;
        if (Date.now() > deadline) throw new Error(`nginx's old workers did not exit within ${OLD_WORKERS_TIMEOUT_MS} ms of a reload:\n${readFileSync(join(next.dir, 'error.log'), 'utf8')}`);
        await sleep(50);
      }
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGQUIT');
      await exited;
    },
  };
}
