import type { Db } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { answerFormat, type ImageFormat, MIME_TYPES, type OutputFormat } from './image-formats.ts';
import { renderImage } from './image-processing.ts';
import { findAsset } from './media.repo.ts';
import { storageKeys } from './media-urls.ts';
import type { MediaStorage } from './storage/storage.ts';

/** Memory for recently served files, and the largest one held (a big original is read each time). */
const HELD_BYTES = 32 * 1024 * 1024;
const HELD_FILE_MAX = 512 * 1024;
const HELD_MS = 60_000;

/** Every answer may be cached for a year: a file never changes under its URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface ServedFile {
  bytes: Buffer;
  etag: string;
  /** Every header of its answer, made once per file held in memory (src/http/send-ready.ts). */
  headers: Readonly<Record<string, string>>;
}

interface AssetFacts {
  fileName: string;
  format: ImageFormat;
}

/**
 * The files of the assets: an original as stored, or a copy at a width and format, made the first
 * time it is asked for and kept in the storage. Within this process, concurrent first requests
 * for one copy wait for the same making; across instances two may make it at once and the second
 * write replaces the first with the same picture (docs/media.md).
 */
export class MediaFiles {
  private readonly making = new Map<string, Promise<Buffer>>();
  /** What a file's URL needs of its asset (name and format never change): no query per kept copy. */
  private readonly facts = new Map<number, AssetFacts>();
  /** Copies this process has made (each kept one is made once). */
  copiesMade = 0;
  /**
   * Recently served small files, up to HELD_BYTES, oldest dropped first, each for HELD_MS: a
   * file never changes under its key, so what is held is the file; an asset deleted on another
   * instance is served here at most HELD_MS longer (dropped at once on the deleting one).
   */
  private readonly held = new Map<string, { bytes: Buffer; until: number }>();
  private heldBytes = 0;
  /** The headers of each file's answer, by its bytes (one Buffer per key, never changed). */
  private readonly headersOf = new WeakMap<Buffer, Readonly<Record<string, string>>>();

  constructor(
    private readonly db: Db,
    private readonly storage: MediaStorage,
    private readonly maxPixels: number,
  ) {}

  /** Forgets an asset (deleted): its URL is a 404 again at once on this instance. */
  forget(id: number): void {
    this.facts.delete(id);
    for (const [key, entry] of this.held) {
      if (key.startsWith(`${id}/`)) this.drop(key, entry.bytes);
    }
  }

  private drop(key: string, bytes: Buffer): void {
    this.held.delete(key);
    this.heldBytes -= bytes.length;
  }

  private hold(key: string, bytes: Buffer): void {
    if (bytes.length > HELD_FILE_MAX || this.held.has(key)) return;
    this.held.set(key, { bytes, until: Date.now() + HELD_MS });
    this.heldBytes += bytes.length;
    for (const [oldest, old] of this.held) {
      if (this.heldBytes <= HELD_BYTES) break;
      this.drop(oldest, old.bytes);
    }
  }

  /** The stored file, from memory when it was served lately. */
  private async stored(key: string): Promise<Buffer | undefined> {
    const held = this.held.get(key);
    if (held && held.until > Date.now()) return held.bytes;
    if (held) this.drop(key, held.bytes);
    const bytes = await this.storage.get(key);
    if (bytes) this.hold(key, bytes);
    return bytes;
  }

  private async factsOf(id: number): Promise<AssetFacts | undefined> {
    const known = this.facts.get(id);
    if (known) return known;
    const row = await findAsset(this.db, id);
    if (!row) return undefined;
    const facts = { fileName: row.fileName, format: row.format as ImageFormat };
    if (this.facts.size >= 10_000) this.facts.clear();
    this.facts.set(id, facts);
    return facts;
  }

  async file(
    id: number,
    name: string,
    ask: { w?: number; format?: OutputFormat; accept?: string },
  ): Promise<ServedFile> {
    const facts = await this.factsOf(id);
    if (!facts || facts.fileName !== name)
      throw new AppError('NOT_FOUND', `media file ${id}/${name} not found`);
    const format = answerFormat(ask.format, ask.accept, facts.format);
    const original = storageKeys.original(id, facts.format);
    const plain = ask.w === undefined && format === facts.format;
    const key = plain ? original : storageKeys.copy(id, ask.w, format);
    const bytes = plain ? await this.stored(key) : await this.copy(key, original, format, ask.w);
    if (!bytes) {
      this.forget(id);
      throw new AppError('NOT_FOUND', `media file ${id}/${name} not found`);
    }
    const etag = `"${key.replace('/', '-')}"`;
    let headers = this.headersOf.get(bytes);
    if (headers === undefined) {
      headers = {
        'content-type': MIME_TYPES[format],
        'cache-control': IMMUTABLE,
        etag,
        'x-content-type-options': 'nosniff',
        // A storefront on another origin shows these in <img>.
        'cross-origin-resource-policy': 'cross-origin',
      };
      this.headersOf.set(bytes, headers);
    }
    return { bytes, etag, headers };
  }

  private async copy(
    key: string,
    originalKey: string,
    format: ImageFormat,
    width: number | undefined,
  ): Promise<Buffer | undefined> {
    const kept = await this.stored(key);
    if (kept) return kept;
    let made = this.making.get(key);
    if (!made) {
      made = this.make(key, originalKey, format, width).finally(() => this.making.delete(key));
      this.making.set(key, made);
    }
    return made;
  }

  private async make(key: string, originalKey: string, format: ImageFormat, width: number | undefined) {
    const original = await this.storage.get(originalKey);
    if (!original) throw new AppError('NOT_FOUND', 'the original of this image is gone');
    const copy = await renderImage(original, { format, width, maxPixels: this.maxPixels });
    await this.storage.put(key, copy.bytes, MIME_TYPES[format]);
    this.copiesMade++;
    this.hold(key, copy.bytes);
    return copy.bytes;
  }
}
