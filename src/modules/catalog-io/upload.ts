import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import { csvText } from './csv-reader.ts';

// The CSV file of an import is kept in memory while it arrives (at most `import.maxBytes`) and
// then stored in the job's row, where a worker of any instance reads it.

export interface ReceivedCsv {
  text: string;
  fileName: string;
}

const received = new WeakMap<FastifyRequest, ReceivedCsv>();

/** @fastify/multipart's onFile: the `file` part, judged by its bytes (UTF-8 text, no NUL byte). */
export async function receiveCsv(this: FastifyRequest, part: MultipartFile): Promise<void> {
  if (part.fieldname !== 'file' || received.has(this)) {
    part.file.resume();
    throw new AppError('VALIDATION_FAILED', 'send one CSV file, as the part named file', [
      { field: part.fieldname, message: 'is not the one file part' },
    ]);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', 'the file is over the import limit (import.maxBytes)');
  const text = csvText(Buffer.concat(chunks));
  if (text === null) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'the file is not CSV text (UTF-8)', [
      { field: 'file', message: 'is not UTF-8 text' },
    ]);
  }
  received.set(this, { text, fileName: part.filename.slice(0, 200) });
  part.value = 'received';
}

/** The request's file, or 400 when none was sent as a file. */
export function receivedCsv(request: FastifyRequest): ReceivedCsv {
  const file = received.get(request);
  if (!file) {
    throw new AppError('VALIDATION_FAILED', 'file is required, as a file part', [{ field: 'file', message: 'is required' }]);
  }
  return file;
}
