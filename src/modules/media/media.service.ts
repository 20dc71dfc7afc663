import type { Db } from '../../db/client.ts';
import type { Caller } from '../../http/access.ts';
import { okList } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { paginationOf } from '../../resources/index.ts';
import { recordAudit } from '../audit/audit.ts';
import { type ImageFormat, MIME_TYPES } from './image-formats.ts';
import { rm } from 'node:fs/promises';
import { inspectImage, renderImageToFile } from './image-processing.ts';
import {
  type AssetRow,
  deleteAsset,
  findAsset,
  insertAsset,
  lockAsset,
  pageAssets,
  setAssetAlt,
} from './media.repo.ts';
import type { AssetJsonType, AssetQueryType } from './media.schemas.ts';
import { assetUrl, srcsetOf, storageKeys } from './media-urls.ts';
import { type MediaUse, type Usage, usageOf } from './media-uses.ts';
import type { MediaStorage } from './storage/storage.ts';
import { safeFileName } from './image-formats.ts';

export interface MediaDeps {
  db: Db;
  storage: MediaStorage;
  uses: readonly MediaUse[];
  maxPixels: number;
}

/** A file received whole: where it waits on disk, its first bytes, the name the client gave. */
export interface ReceivedFile {
  path: string;
  head: Uint8Array;
  fileName: string | undefined;
}

function actorOf(caller: Caller): string {
  return caller.kind === 'admin' ? caller.sub : 'system';
}

export function assetJson(row: AssetRow, usedBy: Usage[]): AssetJsonType {
  return {
    id: row.id,
    url: assetUrl(row),
    mimeType: row.mimeType,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    alt: row.alt,
    srcset: srcsetOf(row),
    usedBy,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A new asset from an uploaded file: recognised from its bytes, its size checked from the header,
 * then decoded and written again without its metadata; the row, the stored original and the
 * audit entry succeed together or not at all (a file left by a failed commit is never named).
 */
export async function uploadAsset(
  deps: MediaDeps,
  caller: Caller,
  file: ReceivedFile,
  alt: string,
  /** The address the file was fetched from (an import's), by which it is found again. */
  sourceUrl: string | null = null,
): Promise<AssetJsonType> {
  const seen = await inspectImage(file.path, file.head, deps.maxPixels);
  const cleanPath = `${file.path}.clean`;
  try {
    const clean = await renderImageToFile(file.path, cleanPath, {
      format: seen.format,
      maxPixels: deps.maxPixels,
    });
    return await storeAsset(deps, caller, file, alt, sourceUrl, { ...clean, format: seen.format, path: cleanPath });
  } finally {
    await rm(cleanPath, { force: true });
  }
}

async function storeAsset(
  deps: MediaDeps,
  caller: Caller,
  file: ReceivedFile,
  alt: string,
  sourceUrl: string | null,
  clean: { path: string; format: ImageFormat; bytes: number; width: number; height: number },
): Promise<AssetJsonType> {
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertAsset(tx, {
      fileName: safeFileName(file.fileName, clean.format),
      format: clean.format,
      mimeType: MIME_TYPES[clean.format],
      width: clean.width,
      height: clean.height,
      bytes: clean.bytes,
      alt,
      sourceUrl,
    });
    await deps.storage.putFile(storageKeys.original(inserted.id, clean.format), clean.path, inserted.mimeType);
    await recordAudit(tx, {
      actor: actorOf(caller),
      action: 'create',
      entity: 'media_asset',
      entityId: inserted.id,
      changes: { fileName: { before: null, after: inserted.fileName }, alt: { before: null, after: alt } },
    });
    return inserted;
  });
  return assetJson(row, []);
}

/** What an upload would refuse in the file (its type, its pixels), without keeping it: a dry run's check. */
export async function checkImageFile(deps: Pick<MediaDeps, 'maxPixels'>, file: ReceivedFile): Promise<void> {
  await inspectImage(file.path, file.head, deps.maxPixels);
}

export async function listAssets(deps: MediaDeps, query: AssetQueryType) {
  const page = query.page ?? 1;
  const limit = query.limit || 15;
  const { rows, total } = await pageAssets(deps.db, {
    q: query.q,
    format: query.format,
    offset: (page - 1) * limit,
    limit,
  });
  const usage = await usageOf(
    deps.db,
    deps.uses,
    rows.map((r) => r.id),
  );
  return okList(
    rows.map((r) => assetJson(r, usage.get(r.id) ?? [])),
    paginationOf(page, limit, total),
  );
}

export async function showAsset(deps: MediaDeps, id: number): Promise<AssetJsonType> {
  const row = await findAsset(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', `media asset ${id} not found`);
  const usage = await usageOf(deps.db, deps.uses, [id]);
  return assetJson(row, usage.get(id) ?? []);
}

export async function changeAlt(
  deps: MediaDeps,
  caller: Caller,
  id: number,
  alt: string,
): Promise<AssetJsonType> {
  const row = await deps.db.transaction(async (tx) => {
    const before = await lockAsset(tx, id);
    if (!before) throw new AppError('NOT_FOUND', `media asset ${id} not found`);
    const after = await setAssetAlt(tx, id, alt);
    await recordAudit(tx, {
      actor: actorOf(caller),
      action: 'update',
      entity: 'media_asset',
      entityId: id,
      changes: before.alt === alt ? {} : { alt: { before: before.alt, after: alt } },
    });
    return after;
  });
  return showAsset(deps, row.id);
}

/**
 * Deletes an asset no owner shows (409 naming them otherwise), then its files. The asset is
 * locked first: an owner's write that names it waits, or has committed and is seen.
 */
export async function removeAsset(deps: MediaDeps, caller: Caller, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await lockAsset(tx, id);
    if (!row) throw new AppError('NOT_FOUND', `media asset ${id} not found`);
    const usedBy = (await usageOf(tx, deps.uses, [id])).get(id) ?? [];
    if (usedBy.length) {
      throw new AppError(
        'ASSET_IN_USE',
        `media asset ${id} is shown by ${usedBy.map((u) => `${u.owner} ${u.id}`).join(', ')}`,
        usedBy.map((u) => ({ field: u.owner, message: `${u.owner} ${u.id} shows it` })),
      );
    }
    await deleteAsset(tx, id);
    await recordAudit(tx, {
      actor: actorOf(caller),
      action: 'delete',
      entity: 'media_asset',
      entityId: id,
      changes: { fileName: { before: row.fileName, after: null } },
    });
  });
  await deps.storage.removeAll(storageKeys.prefix(id));
}
