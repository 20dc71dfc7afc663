import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../http/access.ts';
import { AppError } from '../../http/errors.ts';
import { assetIdsBySourceUrl } from '../media/media.repo.ts';
import { checkImageFile, type MediaDeps, uploadAsset } from '../media/media.service.ts';
import type { ImportProblem } from './catalog-io.tables.ts';
import { type DownloadLimits, DownloadFailed, downloadImage, dropDownload } from './image-download.ts';
import { libraryAssetId } from './woo-cells.ts';
import type { ProductRow } from './woo-row.ts';

// An import that asks for it takes the `Images` addresses into the media library, the way an
// upload is taken (type judged by the bytes, pixel limit, metadata stripped: media's uploadAsset),
// and gives the rows `media` instead of addresses. An address is fetched once per import, and
// never again once the library holds an image fetched from it (media_asset.source_url), so a
// second import of the same file downloads nothing and changes nothing. The downloads happen
// before a batch's transactions, never inside one.

/** An address's image: its asset (null on a dry run: checked, not kept), or why it gave none. */
type Fetched = { assetId: number | null } | { failure: string };

export interface ImageFetchSetup {
  media: Pick<MediaDeps, 'db' | 'storage' | 'maxPixels'>;
  limits: DownloadLimits;
  /** The admin who sent the file: the assets' audit entries are theirs. */
  caller: Caller;
  dryRun: boolean;
  log: FastifyBaseLogger;
}

/** Downloads at once: an import's addresses are often on one slow shop. */
const AT_ONCE = 4;

export class ImportImages {
  private readonly fetched = new Map<string, Promise<Fetched>>();

  constructor(private readonly setup: ImageFetchSetup) {}

  /**
   * Before a batch's writes: each row's `Images` as assets (`mediaIds`, in the cell's order), and
   * a problem in the `Images` column for each address that gave no image. A row with such an
   * address keeps the images the shop has (its other cells still land).
   */
  async resolve(rows: readonly ProductRow[]): Promise<ImportProblem[]> {
    const withImages = rows.filter((r) => r.images !== null);
    await this.fetchNew(withImages);
    const problems: ImportProblem[] = [];
    for (const row of withImages) {
      const urls = row.images ?? [];
      const results = await Promise.all(urls.map((url) => this.fetched.get(url) as Promise<Fetched>));
      const ids: number[] = [];
      for (const [i, result] of results.entries()) {
        if ('failure' in result) problems.push({ row: row.row, column: 'Images', message: `"${urls[i]}" ${result.failure}` });
        else if (result.assetId !== null) ids.push(result.assetId);
      }
      // On a dry run an image not yet in the library has no asset: the row's media are not compared.
      row.mediaIds = ids.length === urls.length ? ids : null;
      row.images = null;
    }
    return problems;
  }

  /** The addresses not seen yet in this import: found in the library by address, else fetched. */
  private async fetchNew(rows: readonly ProductRow[]): Promise<void> {
    const altOf = new Map<string, string>();
    for (const row of rows) {
      for (const url of row.images ?? []) {
        const own = libraryAssetId(url);
        // The library's own address (`/media/7/…`) is that image: nothing to fetch.
        if (own !== undefined && !this.fetched.has(url)) this.fetched.set(url, Promise.resolve({ assetId: own }));
        else if (!this.fetched.has(url) && !altOf.has(url)) altOf.set(url, row.name);
      }
    }
    const stored = await assetIdsBySourceUrl(this.setup.media.db, [...altOf.keys()]);
    for (const [url, assetId] of stored) this.fetched.set(url, Promise.resolve({ assetId }));
    const queue = [...altOf].filter(([url]) => !stored.has(url));
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [url, alt] = next;
        const result = this.fetchOne(url, alt);
        this.fetched.set(url, result);
        await result;
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  }

  private async fetchOne(url: string, alt: string): Promise<Fetched> {
    const { media, limits, caller, dryRun, log } = this.setup;
    let file: Awaited<ReturnType<typeof downloadImage>>;
    try {
      file = await downloadImage(url, limits);
    } catch (err) {
      if (err instanceof DownloadFailed) return { failure: err.message };
      throw err;
    }
    try {
      if (dryRun) {
        await checkImageFile(media, file);
        return { assetId: null };
      }
      const asset = await uploadAsset({ ...media, uses: [] }, caller, file, alt.slice(0, 500), url);
      return { assetId: asset.id };
    } catch (err) {
      // What an upload would refuse (not an image, too many pixels, corrupt) is the address's problem.
      if (err instanceof AppError && err.status < 500) return { failure: err.message };
      log.error({ err, url }, 'import image not stored');
      return { failure: 'could not be stored' };
    } finally {
      await dropDownload(file);
    }
  }
}
