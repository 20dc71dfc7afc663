import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase, testEngine } from '../helpers/database.ts';

let builtServer: string;
let serviceFlags: string[];

interface Server {
  child: ChildProcess;
  base: string;
  exited: Promise<number | null>;
}

function serverEnv(dataDir: string, testDb?: TestDatabase): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: '0',
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  if (testDb?.url) env.DATABASE_URL = testDb.url;
  return env;
}

/** Starts what `npm start` runs (the server built by scripts/build.mjs) and waits for its ready line. */
function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, [...serviceFlags, builtServer], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = /ready at (http:\/\/[\d.]+:\d+)\/rest/.exec(out);
      if (match) resolve({ child, base: match[1], exited });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk) => {
      out += chunk;
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('the server process', () => {
  let dataDir: string;
  let testDb: TestDatabase | undefined;

  before(async () => {
    // @ts-expect-error: a plain ES module without type declarations
    const build = await import('../../scripts/build.mjs');
    builtServer = await build.buildServer();
    serviceFlags = build.serviceNodeFlags();
    assert.ok(serviceFlags.length > 0, 'npm start runs the server with its memory flags');
    dataDir = mkdtempSync(join(tmpdir(), 'shop-process-'));
    if (testEngine === 'postgres') testDb = await createTestDatabase();
  });
  after(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await testDb?.destroy();
  });

  test('when stopped with SIGTERM and started again, then data written before the signal is there', async () => {
    const env = serverEnv(join(dataDir, 'db'), testDb);
    const first = await startServer(env);
    const credentials = {
      email: 'Keep.Me@Example.com',
      password: 'persisted-pass-1',
      firstName: 'Kim',
      lastName: 'Lee',
    };
    const registered = await postJson(`${first.base}/rest/auth/customer/register`, credentials);
    assert.equal(registered.status, 201);

    if (testEngine === 'pglite') {
      const second = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      second.stderr?.on('data', (c) => {
        stderr += c;
      });
      const code = await new Promise((resolve) => second.once('exit', resolve));
      assert.equal(code, 1, 'a second process on the same data dir refuses to start');
      assert.match(stderr, /in use by process/);
    }

    const started = Date.now();
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    assert.ok(Date.now() - started < 10_000, 'stops within 10 s');

    const again = await startServer(env);
    try {
      const login = await postJson(`${again.base}/rest/auth/customer/login`, {
        username: 'keep.me@example.com',
        password: 'persisted-pass-1',
      });
      assert.equal(login.status, 200);
      assert.ok(((await login.json()) as { access_token: string }).access_token);
    } finally {
      again.child.kill('SIGTERM');
      assert.equal(await again.exited, 0);
    }
  });
});
