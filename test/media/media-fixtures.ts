import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { App } from '../../src/app.ts';

// Real image bytes for the media tests, made by sharp at run time (no file in the repository),
// and the multipart bodies a browser would send.

export type Format = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';

/** A picture with some detail (a gradient and noise), so encoders have work to do. */
export async function picture(
  width: number,
  height: number,
  format: Format,
  options: { exif?: boolean } = {},
) {
  const noise = randomBytes(width * height * 3);
  for (let i = 0; i < noise.length; i += 3) noise[i] = (i / 3) % width;
  let image = sharp(noise, { raw: { width, height, channels: 3 } });
  if (options.exif) {
    image = image.withExif({
      IFD0: { Copyright: 'Someone', Artist: 'A camera owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1' },
    });
  }
  return image.toFormat(format).toBuffer();
}

/** A PNG whose header claims `width` × `height` and holds no pixels (what a decompression bomb declares). */
export function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Part {
  name: string;
  value: string | Buffer;
  fileName?: string;
  type?: string;
}

/** A multipart/form-data body and its content type. */
export function formData(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----shop${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const file = part.fileName === undefined ? '' : `; filename="${part.fileName}"`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`,
        'latin1',
      ),
    );
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /rest/media/asset with one file (and an alt text). */
export async function upload(
  app: App,
  headers: Record<string, string>,
  bytes: Buffer,
  options: { fileName?: string; type?: string; alt?: string } = {},
): Promise<LightMyRequestResponse> {
  const parts: Part[] = [
    {
      name: 'file',
      value: bytes,
      fileName: options.fileName ?? 'photo.jpg',
      type: options.type ?? 'image/jpeg',
    },
  ];
  if (options.alt !== undefined) parts.push({ name: 'alt', value: options.alt });
  const form = formData(parts);
  return app.inject({
    method: 'POST',
    url: '/rest/media/asset',
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}

export interface AssetJson {
  id: number;
  url: string;
  mimeType: string;
  width: number;
  height: number;
  bytes: number;
  alt: string;
  srcset: string;
  usedBy: { owner: string; id: number }[];
}

/** Uploads and answers the asset (fails loudly otherwise). */
export async function uploaded(
  app: App,
  headers: Record<string, string>,
  bytes: Buffer,
  options = {},
): Promise<AssetJson> {
  const res = await upload(app, headers, bytes, options);
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json().data as AssetJson;
}
