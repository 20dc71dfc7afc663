import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import S3rver from 's3rver';
import sharp from 'sharp';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { adminHeaders } from '../helpers/catalog-factories.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { picture, uploaded } from './media-fixtures.ts';

// The storages several instances share: an S3-compatible bucket (s3rver, a local S3 server
// started here on a free port) and a directory. Two apps over one database and one storage play
// two instances: what one uploads or makes, the other serves; what one deletes, neither reads
// from the storage again.

describe('media storage shared by two instances', () => {
  let workDir: string;
  let s3: S3rver;
  let database: TestDatabase;
  let bucketA: TestApp;
  let bucketB: TestApp;
  let dirA: TestApp;
  let dirB: TestApp;

  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'shop-media-'));
    s3 = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: join(workDir, 's3'),
      configureBuckets: [{ name: 'shop-media', configs: [] }],
    });
    const { port } = await s3.run();
    const s3Config = {
      media: {
        s3: {
          endpoint: `http://127.0.0.1:${port}`,
          bucket: 'shop-media',
          region: 'us-east-1',
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          forcePathStyle: true,
          prefix: 'shop/',
        },
      },
    };
    database = await createTestDatabase();
    bucketA = await startTestApp({ testDatabase: database, config: s3Config });
    bucketB = await startTestApp({ testDatabase: database, config: s3Config });
    const dirConfig = { media: { dir: join(workDir, 'dir') } };
    dirA = await startTestApp({ testDatabase: database, config: dirConfig });
    dirB = await startTestApp({ testDatabase: database, config: dirConfig });
  });
  after(async () => {
    for (const app of [bucketA, bucketB, dirA, dirB]) await app?.close();
    await database?.destroy();
    await s3?.close();
    await rm(workDir, { recursive: true, force: true });
  });

  for (const kind of ['bucket', 'directory'] as const) {
    test(`when one instance uploads to the ${kind}, then the other serves the original and the copy it made`, async () => {
      const [one, other] = kind === 'bucket' ? [bucketA, bucketB] : [dirA, dirB];
      const headers = await adminHeaders(one.app, [9]);
      const asset = await uploaded(one.app, headers, await picture(800, 600, 'jpeg'), {
        fileName: 'lamp.jpg',
      });
      const original = await other.app.inject({ url: asset.url });
      assert.equal(original.statusCode, 200);
      assert.equal((await sharp(original.rawPayload).metadata()).width, 800);
      const copy = await one.app.inject({ url: `${asset.url}?w=256&format=webp` });
      const made = other.app.mediaFiles.copiesMade;
      const kept = await other.app.inject({ url: `${asset.url}?w=256&format=webp` });
      assert.equal(other.app.mediaFiles.copiesMade, made, 'the copy is read, not made again');
      assert.ok(kept.rawPayload.equals(copy.rawPayload));
      assert.deepEqual(
        [(await sharp(kept.rawPayload).metadata()).width, kept.headers['content-type']],
        [256, 'image/webp'],
      );
      const deleted = await other.app.inject({
        method: 'DELETE',
        url: `/rest/media/asset/${asset.id}`,
        headers,
      });
      assert.equal(deleted.statusCode, 200);
      assert.equal((await other.app.inject({ url: `${asset.url}?w=256&format=webp` })).statusCode, 404);
      assert.equal((await one.app.inject({ url: asset.url })).statusCode, 404);
    });
  }

  test('when files are written to the directory, then only names the shop made are on disk', async () => {
    const headers = await adminHeaders(dirA.app, [9]);
    const asset = await uploaded(dirA.app, headers, await picture(100, 100, 'png'), {
      fileName: '../../../evil\u0000.png',
    });
    await dirA.app.inject({ url: `${asset.url}?w=64&format=avif` });
    const names = await readdir(join(workDir, 'dir', String(asset.id)));
    assert.deepEqual(names.sort(), ['original.png', 'w64.avif']);
    for (const name of await readdir(join(workDir, 'dir'))) assert.match(name, /^\d+$/);
  });
});
