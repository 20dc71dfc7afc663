import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { SNIFF_BYTES } from './image-formats.ts';
import type { ReceivedFile } from './media.service.ts';

// An upload is streamed to a file of its own in the system's temporary directory (its name is
// random: the client's name never reaches the file system), so twenty uploads at once hold no
// twenty bodies in memory; the file is removed when the answer is sent.

const received = new WeakMap<FastifyRequest, ReceivedFile>();

/** Keeps the first bytes as they pass (the format is read from them). */
function headKeeper(into: { head: Buffer }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (into.head.length < SNIFF_BYTES) {
        into.head = Buffer.concat([into.head, chunk.subarray(0, SNIFF_BYTES - into.head.length)]);
      }
      done(null, chunk);
    },
  });
}

/** @fastify/multipart's onFile: the `file` part to disk; a second file, or another part name, is refused. */
export async function receiveFile(this: FastifyRequest, part: MultipartFile): Promise<void> {
  if (part.fieldname !== 'file' || received.has(this)) {
    part.file.resume();
    throw new AppError('VALIDATION_FAILED', 'send one image, as the part named file', [
      { field: part.fieldname, message: 'is not the one file part' },
    ]);
  }
  const path = join(tmpdir(), `shop-upload-${randomBytes(12).toString('hex')}`);
  const kept = { head: Buffer.alloc(0) };
  received.set(this, { path, head: kept.head, fileName: part.filename });
  await pipeline(part.file, headKeeper(kept), createWriteStream(path));
  if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', 'the image is over the upload limit');
  received.set(this, { path, head: kept.head, fileName: part.filename });
  part.value = 'received';
}

/** The request's file, or 400 when none was sent as a file. */
export function receivedFile(request: FastifyRequest): ReceivedFile {
  const file = received.get(request);
  if (!file) {
    throw new AppError('VALIDATION_FAILED', 'file is required, as a file part', [
      { field: 'file', message: 'is required' },
    ]);
  }
  return file;
}

/** onResponse: the temporary file goes, whatever the answer was. */
export async function dropReceivedFile(request: FastifyRequest): Promise<void> {
  const file = received.get(request);
  if (file) await rm(file.path, { force: true });
}
