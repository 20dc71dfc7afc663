import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseConfig } from '../../src/config.ts';

function configDir(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'shop-config-'));
  mkdirSync(join(dir, 'config'));
  writeFileSync(join(dir, 'config', 'shop.json'), JSON.stringify(content));
  return dir;
}

describe('configuration', () => {
  test('when nothing is configured, then the documented defaults apply', () => {
    const config = loadConfig({}, mkdtempSync(join(tmpdir(), 'empty-')));
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.dataDir, './data');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.http.bodyLimitBytes, 1024 * 1024);
    assert.ok(config.http.requestTimeoutMs > 0 && config.http.connectionTimeoutMs > 0);
  });

  test('when the environment sets a key, then it wins over the file', () => {
    const dir = configDir({ port: 4000, host: '0.0.0.0', cors: { origins: ['https://a.example'] } });
    assert.equal(loadConfig({}, dir).port, 4000);
    const config = loadConfig({ PORT: '5000', CORS_ORIGINS: 'https://b.example, https://c.example' }, dir);
    assert.equal(config.port, 5000);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.cors.origins, ['https://b.example', 'https://c.example']);
  });

  test('when the file has an unknown key, then the start is refused naming it', () => {
    const dir = configDir({ auth: { secret: 'x', tokenLifetime: 5 } });
    assert.throws(
      () => loadConfig({}, dir),
      (err: Error) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /auth\.tokenLifetime/);
        return true;
      },
    );
  });

  test('when a value has the wrong type, then the message names the key', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }, mkdtempSync(join(tmpdir(), 'e-'))), /"port"/);
    assert.throws(() => parseConfig({ rateLimit: { loginPerIp: 'many' } }), /rateLimit\.loginPerIp/);
  });

  test('when running in production, then a missing, short or demo secret is refused', () => {
    assert.throws(() => parseConfig({ nodeEnv: 'production' }), /auth\.secret.*required/);
    assert.throws(
      () => parseConfig({ nodeEnv: 'production', auth: { secret: 'short' } }),
      /at least 32 bytes/,
    );
    assert.throws(
      () =>
        parseConfig({ nodeEnv: 'production', auth: { secret: 'demo-secret-for-my-shop-0123456789abcdef' } }),
      /demo secret/,
    );
    // The key once shipped in config/shop.json is public: refused in every environment.
    for (const nodeEnv of ['development', 'production']) {
      assert.throws(
        () =>
          parseConfig({ nodeEnv, auth: { secret: 'demo-secret-change-me-before-going-live-0123456789' } }),
        /published/,
      );
    }
    const strong = 'k7Qz1vX9pL2mN8bR4tY6wE3uI5oA0sD7fG1hJ9kL';
    assert.equal(parseConfig({ nodeEnv: 'production', auth: { secret: strong } }).auth.secret, strong);
  });

  test('when running in production, then plain-text static passwords are refused', () => {
    const strong = 'k7Qz1vX9pL2mN8bR4tY6wE3uI5oA0sD7fG1hJ9kL';
    assert.throws(
      () =>
        parseConfig({
          nodeEnv: 'production',
          auth: { secret: strong },
          staticUsers: [{ username: 'ops@example.com', password: 'plain', roles: [1] }],
        }),
      /staticUsers\.0\.password/,
    );
  });

  test('when a configured secret is shorter than 32 bytes, then it is refused in every environment', () => {
    for (const nodeEnv of ['development', 'test', 'production']) {
      assert.throws(
        () => parseConfig({ nodeEnv, auth: { secret: 'only-31-bytes-long-0123456789ab' } }),
        /auth\.secret.*at least 32 bytes/,
      );
    }
    // None configured: the generated key stays the development default.
    assert.equal(parseConfig({ nodeEnv: 'development' }).auth.secret, '');
  });

  test('when NODE_ENV is not exactly development, test or production, then the start is refused naming it', () => {
    const empty = mkdtempSync(join(tmpdir(), 'env-'));
    for (const value of ['Production', 'prod', 'PRODUCTION', 'staging']) {
      assert.throws(
        () => loadConfig({ NODE_ENV: value }, empty),
        (err: Error) => {
          assert.ok(err instanceof ConfigError);
          assert.match(
            err.message,
            new RegExp(`NODE_ENV.*"${value}" is not one of development, test, production`),
          );
          return true;
        },
      );
    }
    for (const value of ['development', 'test'])
      assert.equal(loadConfig({ NODE_ENV: value }, empty).nodeEnv, value);
    assert.equal(loadConfig({}, empty).nodeEnv, 'development');
  });

  test('when metrics are configured, then the token is at least 32 characters and METRICS_* set them', () => {
    const empty = mkdtempSync(join(tmpdir(), 'metrics-'));
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }, empty), /metrics\.token/);
    const config = loadConfig({ METRICS_TOKEN: 't'.repeat(32), METRICS_PORT: '9464' }, empty);
    assert.deepEqual(config.metrics, { token: 't'.repeat(32), port: 9464 });
  });

  test('when the server starts with a bad key, then it exits 1 with a message naming the key', () => {
    const dir = configDir({ nope: true });
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: {
        ...process.env,
        SHOP_CONFIG: join(dir, 'config', 'shop.json'),
        DATA_DIR: 'memory://',
        PORT: '0',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /configuration key "nope": unknown key/);
  });
});
