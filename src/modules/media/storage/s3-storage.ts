import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { MediaStorageChoice } from '../../../config.ts';
import { assertSafeKey, assertSafePrefix, type MediaStorage } from './storage.ts';

type S3Options = Extract<MediaStorageChoice, { kind: 's3' }>['s3'];

/**
 * Files in an S3-compatible bucket: the storage several instances share (each sees the others'
 * uploads and copies). `prefix` keeps several shops apart in one bucket.
 */
export function s3Storage(options: S3Options): MediaStorage {
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    // A file is sent as a stream of known length; with a checksum asked for every request the
    // SDK would send it `aws-chunked`, which several self-hosted servers do not read.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  const Bucket = options.bucket;
  const keyOf = (key: string) => `${options.prefix}${key}`;
  return {
    async get(key) {
      assertSafeKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : undefined;
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async put(key, bytes, contentType) {
      assertSafeKey(key);
      await client.send(
        new PutObjectCommand({ Bucket, Key: keyOf(key), Body: bytes, ContentType: contentType }),
      );
    },
    async putFile(key, path, contentType) {
      assertSafeKey(key);
      const { size } = await stat(path);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(key),
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: contentType,
        }),
      );
    },
    async removeAll(prefix) {
      assertSafePrefix(prefix);
      const listed = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyOf(prefix) }));
      const keys = (listed.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length) await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
    },
    async close() {
      client.destroy();
    },
  };
}
