import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rssMb } from './figures.ts';

// The real server process (`npm start`'s entry point) for scenarios that need real sockets,
// signals and a process to measure: started with a config file of the scenario's own, and
// always killed by `stop()`, which the scenarios call in `after`/`finally`.

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  base: string;
  port: number;
  exited: Promise<number | null>;
  /** Everything the process printed, for failure messages. */
  output(): string;
  rss(): number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
}

export interface ServerOptions {
  /** PGlite data dir; ignored with `databaseUrl`. */
  dataDir?: string;
  databaseUrl?: string;
  /** Extra configuration (file shape), merged over the scenario defaults. */
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  startTimeoutMs?: number;
  /** Node flags before the entry point, e.g. `npm start`'s memory flags. */
  nodeArgs?: string[];
}

/** A temporary directory removed by the returned function, even if already gone. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const dir = tempDir('shop-hardening-config-');
  const configPath = join(dir.path, 'shop.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      seedDemo: false,
      logLevel: 'error',
      rateLimit: { enabled: false },
      ...options.config,
    }),
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SHOP_CONFIG: configPath,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    ...options.env,
  };
  for (const name of [
    'DATABASE_URL',
    'DATA_DIR',
    'SEED_DEMO',
    'LOG_LEVEL',
    'RATE_LIMIT_ENABLED',
    'REDIS_URL',
    'JWT_SECRET',
  ]) {
    if (!options.env?.[name]) delete env[name];
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  else env.DATA_DIR = options.dataDir ?? 'memory://';

  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/server.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => {
    out += c;
  });
  child.stderr?.on('data', (c: Buffer) => {
    out += c;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Never outlive the test process, even when it stops early.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => {
    process.removeListener('exit', killOnExit);
    dir.remove();
  });
  const timeout = options.startTimeoutMs ?? 120_000;
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeout} ms: ${out.slice(-2000)}`));
    }, timeout);
    const check = () => {
      const match = /ready at (http:\/\/[\d.]+:\d+)\/rest/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out.slice(-2000)}`));
    });
  });
  const pid = child.pid!;
  return {
    child,
    pid,
    base,
    port: Number(new URL(base).port),
    exited,
    output: () => out,
    rss: () => rssMb(pid),
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** JSON over real HTTP; never throws on a status, only on a network failure. */
export async function http(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<{ status: number; json: unknown; text: string; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const res = await fetch(base + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** An admin access token from the spawned server's own login (tokens name a session it keeps). */
export async function adminLogin(
  base: string,
  user: { username: string; password: string },
): Promise<string> {
  const res = await http(base, 'POST', '/rest/auth/admin/login', {
    body: { username: user.username, password: user.password },
  });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${res.text}`);
  return (res.json as { access_token: string }).access_token;
}
