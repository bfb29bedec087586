import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const HAPROXY = '/usr/sbin/haproxy';

/** Why Debian's haproxy cannot be started here, or false when it can. */
export const haproxySkip = (): string | false => (existsSync(HAPROXY) ? false : 'haproxy is not installed');

export interface Backend {
  name: string;
  /** The loopback port HAProxy listens on for it. */
  listen: number;
  servers: number[];
}

/**
 * HAProxy's configuration: one frontend and backend per service, round robin, a health check
 * on /healthz every 500 ms (two failures take a server out). A request whose connection failed,
 * or whose server closed it without an answer (a SIGKILLed instance), is sent again to another
 * server (`retry-on`, `redispatch`), so a dead instance costs the caller no 502. Every request
 * gets an id of HAProxy's own in `X-Request-Id` (set, so a client's header of that name is
 * replaced): a re-sent request is the same buffered request, id included, so the API instances
 * (QUOTA_REQUEST_ID_HEADER=x-request-id) count a call the dead instance had counted only once.
 * Each request is logged with its status, retries (`%rc`) and id.
 */
export function haproxyConfig(backends: Backend[]): string {
  const lines = [
    'global',
    '  log stdout format raw local0',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  log global',
    '  log-format "%b/%s %ST %rc %{+Q}r %ID"',
    // Client and frontend address and port, accept time, request counter and process: unique per call,
    // in characters the API's request ids accept (server-kit genReqId), so its log lines carry HAProxy's id.
    '  unique-id-format %{+X}o%ci:%cp-%fi:%fp-%Ts-%rt:%pid',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response',
  ];
  for (const backend of backends) {
    lines.push(
      `frontend ${backend.name}`,
      `  bind 127.0.0.1:${backend.listen}`,
      '  http-request set-header X-Request-Id %[unique-id]',
      `  default_backend ${backend.name}`,
      `backend ${backend.name}`,
      '  balance roundrobin',
      '  option httpchk GET /healthz',
      '  http-check expect status 200',
      '  default-server inter 500 fall 2 rise 2',
      ...backend.servers.map((port, i) => `  server ${backend.name}${i + 1} 127.0.0.1:${port} check`),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Starts haproxy in the foreground on `config`, its request log appended to `logFile`. */
export function startHaproxy(dir: string, backends: Backend[], logFile: string): ChildProcess {
  const configFile = path.join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(backends));
  const child = spawn(HAPROXY, ['-db', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}
