// Debian's nginx in front of server processes, for the multi-process test and the benchmark: the
// site file deploy/nginx/zhusuan.conf with its upstream ports and listen address
// replaced, inside a main configuration of a temporary prefix (daemon off, a child of this
// process). The access log names the process (upstream address) that answered each request and the
// request's X-Probe header, so that a test can tell which process served what.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../src/server/schema-source.ts';

export const SITE_FILE = join(PROJECT_ROOT, 'deploy/nginx/zhusuan.conf');
const UPSTREAM_LINE = /^(\s*)server 127\.0\.0\.1:\d+( [^;]*)?;\n/gm;

export interface Nginx {
  /** http://127.0.0.1:port */
  url: string;
  /** The master process (its workers are its children). */
  pid: number;
  /** Requests answered so far, oldest first. */
  answered(): AccessLine[];
  /** Everything nginx printed (errors, warnings). */
  output(): string;
  stop(): Promise<void>;
}

export interface AccessLine {
  /** The request's X-Probe header ('-' without one). */
  probe: string;
  /** The process that answered: 127.0.0.1:port (several, comma-separated, when nginx retried). */
  upstream: string;
  status: number;
  method: string;
  path: string;
}

/** The site file with these upstream ports and this listen address. */
export function renderSite(ports: number[], listenPort: number): string {
  const site = readFileSync(SITE_FILE, 'utf8');
  let indent = '    ';
  let options = '';
  let first = true;
  const rendered = site.replace(UPSTREAM_LINE, (_line, space: string, rest: string | undefined) => {
    indent = space;
    options = rest ?? '';
    if (!first) return '';
    first = false;
    return '\u0000';
  });
  if (first) throw new Error(`${SITE_FILE}: no "server 127.0.0.1:port" line in the upstream`);
  const servers = ports.map((port) => `${indent}server 127.0.0.1:${port}${options};\n`).join('');
  const listen = /^(\s*)listen 80;$/m;
  if (!listen.test(rendered)) throw new Error(`${SITE_FILE}: no "listen 80;" line`);
  return rendered.replace('\u0000', servers).replace(listen, `$1listen 127.0.0.1:${listenPort};`);
}

/** What Debian's /etc/nginx/nginx.conf provides around the site, inside `prefix`. */
function mainConfig(prefix: string, workers: number | 'auto'): string {
  return `daemon off;
worker_processes ${workers};
pid ${prefix}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    default_type application/octet-stream;
    gzip on;
    log_format probe '$http_x_probe|$upstream_addr|$status|$request_method|$uri';
    access_log ${prefix}/access.log probe;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    include ${prefix}/zhusuan.conf;
}
`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function nginxBinary(): string {
  const found = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (!found) throw new Error('nginx is not installed (apt-get install -y nginx; .ci/run does it on CI)');
  return found;
}

/**
 * Starts nginx on a free loopback port in front of the processes listening on `ports`. `workers`:
 * nginx's worker processes, one per core by default as in Debian's configuration.
 */
export async function startNginx(ports: number[], workers: number | 'auto' = 'auto'): Promise<Nginx> {
  const prefix = mkdtempSync(join(tmpdir(), 'zs-nginx-'));
  chmodSync(prefix, 0o755); // nginx's workers (not root) create their temporary files inside
  const port = await freePort();
  writeFileSync(join(prefix, 'zhusuan.conf'), renderSite(ports, port));
  writeFileSync(join(prefix, 'nginx.conf'), mainConfig(prefix, workers));
  const proc: ChildProcess = spawn(nginxBinary(), ['-e', 'stderr', '-p', prefix, '-c', join(prefix, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async () => {
    if (running) proc.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (running) proc.kill('SIGKILL');
    rmSync(prefix, { recursive: true, force: true });
  };
  for (let i = 0; i < 100 && running && !(await accepts(port)); i++) await sleep(50);
  if (!running || !(await accepts(port))) {
    await stop();
    throw new Error(`nginx did not start:\n${out}`);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: proc.pid!,
    output: () => out,
    stop,
    answered() {
      const log = join(prefix, 'access.log');
      if (!existsSync(log)) return [];
      return readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [probe, upstream, status, method, path] = line.split('|');
          return { probe, upstream, status: Number(status), method, path };
        });
    },
  };
}
