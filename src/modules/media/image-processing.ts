import { availableParallelism } from 'node:os';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AppError } from '../../http/errors.ts';
import { type ImageFormat, sniffFormat } from './image-formats.ts';

// Every decode and encode goes through here, with sharp limited on purpose: one libvips thread
// per operation, no operation cache (memory stays flat under many uploads), a pixel limit
// checked from the header before any decode, and a time limit so a hostile file cannot hold a
// worker (docs/media.md).
sharp.concurrency(1);
sharp.cache(false);

/**
 * Operations at once in this process; the others wait their turn (memory is bounded by this):
 * `media.imageWorkers`, by default half the cores (at least one).
 */
let parallel = Math.max(1, Math.floor(availableParallelism() / 2));
const TIMEOUT_SECONDS = 20;
const QUALITY: Partial<Record<ImageFormat, number>> = { jpeg: 85, webp: 80, avif: 55 };

let running = 0;
const waiting: (() => void)[] = [];

/** How many decodes or encodes may run at once (the configuration's `media.imageWorkers`). */
export function setImageWorkers(count: number | undefined): void {
  if (count) parallel = count;
}

/** Runs `work` when a slot is free. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= parallel) await new Promise<void>((wake) => waiting.push(wake));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export interface Inspected {
  format: ImageFormat;
  width: number;
  height: number;
}

function unreadable(): AppError {
  return new AppError('IMAGE_UNREADABLE', 'the image is truncated or corrupt');
}

/**
 * The format (from the bytes, with libvips agreeing) and the size from the header, without
 * decoding: a format outside the accepted ones → 415, more than `maxPixels` → 422.
 */
export async function inspectImage(
  input: string | Buffer,
  head: Uint8Array,
  maxPixels: number,
): Promise<Inspected> {
  const format = sniffFormat(head);
  if (!format)
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'the file is not a JPEG, PNG, WebP, AVIF or GIF image');
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  const seen = meta.format === 'heif' ? 'avif' : meta.format;
  if (seen !== format) throw unreadable();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw unreadable();
  if (width * height * (meta.pages ?? 1) > maxPixels) {
    throw new AppError('IMAGE_TOO_LARGE', `the image has more than ${maxPixels} pixels`, [
      { field: 'file', message: `is ${width} × ${height} pixels` },
    ]);
  }
  return { format, width, height };
}

/**
 * `resized` is a copy at one of the fixed widths. Only those get JPEG's optimised Huffman tables:
 * libjpeg needs the whole picture's coefficients in memory for them (about 80 MB for 12
 * megapixels, against a few MB streamed), for files some 5 % smaller (docs/performance.md).
 */
function encoder(image: Sharp, format: ImageFormat, resized: boolean): Sharp {
  const quality = QUALITY[format];
  if (format === 'avif') return image.avif({ quality, effort: 2 });
  if (format === 'jpeg') return image.jpeg({ quality, mozjpeg: false, optimiseCoding: resized });
  if (format === 'webp') return image.webp({ quality, effort: 3 });
  if (format === 'png') return image.png({ compressionLevel: 6 });
  return image.gif();
}

function pipelineOf(input: string | Buffer, options: RenderOptions): Sharp {
  let image = sharp(input, { limitInputPixels: options.maxPixels, failOn: 'truncated' })
    .rotate()
    .timeout({ seconds: TIMEOUT_SECONDS });
  if (options.width) image = image.resize({ width: options.width, withoutEnlargement: true });
  return encoder(image, options.format, options.width !== undefined);
}

interface RenderOptions {
  format: ImageFormat;
  width?: number;
  maxPixels: number;
}

/**
 * Decodes and encodes an image: turned upright by its EXIF orientation, then every metadata
 * (EXIF, GPS, XMP, comments) left behind — sharp writes none unless asked. `width` resizes it
 * (never larger than it is). A truncated or corrupt file → 422.
 */
export async function renderImage(
  input: string | Buffer,
  options: RenderOptions,
): Promise<{ bytes: Buffer; width: number; height: number }> {
  return inTurn(async () => {
    try {
      const { data, info } = await pipelineOf(input, options).toBuffer({ resolveWithObject: true });
      return { bytes: data, width: info.width, height: info.height };
    } catch {
      throw unreadable();
    }
  });
}

/**
 * The same, written to the file `output` instead of memory: an upload's original (megabytes)
 * never becomes a Buffer waiting for the collector.
 */
export async function renderImageToFile(
  input: string,
  output: string,
  options: RenderOptions,
): Promise<{ bytes: number; width: number; height: number }> {
  return inTurn(async () => {
    try {
      const info = await pipelineOf(input, options).toFile(output);
      return { bytes: info.size, width: info.width, height: info.height };
    } catch {
      throw unreadable();
    }
  });
}
