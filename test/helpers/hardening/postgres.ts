import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './server.ts';

// A PRIVATE PostgreSQL cluster in a temporary directory, so a scenario may restart or stop it
// without touching anyone's database. initdb refuses to run as root: as root every command
// runs as the `postgres` user. `destroy()` stops the cluster and removes the directory.

export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  urlFor(database: string): string;
  /** `pg_ctl restart -m immediate`: every connection dies, the cluster recovers from its WAL. */
  restartImmediate(): void;
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startCluster(bin: string): Promise<Cluster> {
  const dir = tempDir('shop-hardening-pg-');
  const data = join(dir.path, 'data');
  const log = join(dir.path, 'postgres.log');
  const port = await freePort();
  const asRoot = userInfo().uid === 0;
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], {
          stdio: 'pipe',
          timeout: 60_000,
        })
      : execFileSync(join(bin, tool), args, { stdio: 'pipe', timeout: 60_000 });
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir.path]);
  const options = `-p ${port} -k ${dir.path} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const ctl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '30', ...args]);
  let running = false;
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    ctl('-o', options, 'start');
    running = true;
  } catch (err) {
    dir.remove();
    throw err;
  }
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const onSignal = (signal: NodeJS.Signals) => {
    destroy();
    process.kill(process.pid, signal);
  };
  const destroy = () => {
    process.removeListener('exit', destroy);
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
    try {
      if (running) ctl('-m', 'immediate', 'stop');
    } catch {
      // Already down.
    }
    running = false;
    dir.remove();
  };
  // Even when the test process is stopped early (a runner timeout, Ctrl-C), the cluster goes.
  process.once('exit', destroy);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return {
    port,
    adminUrl,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    restartImmediate: () => {
      ctl('-o', options, '-m', 'immediate', 'restart');
    },
    stop: () => {
      ctl('-m', 'immediate', 'stop');
      running = false;
    },
    start: () => {
      ctl('-o', options, 'start');
      running = true;
    },
    destroy,
  };
}
