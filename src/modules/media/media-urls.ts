import type { ImageFormat } from './image-formats.ts';
import { EXTENSIONS, widthsFor } from './image-formats.ts';

/** Where an asset's files live in the storage: built from its id and fixed tokens only. */
export const storageKeys = {
  original: (id: number, format: ImageFormat) => `${id}/original.${EXTENSIONS[format]}`,
  copy: (id: number, width: number | undefined, format: ImageFormat) =>
    `${id}/${width ? `w${width}` : 'full'}.${EXTENSIONS[format]}`,
  prefix: (id: number) => `${id}/`,
};

export function assetUrl(asset: { id: number; fileName: string }): string {
  return `/media/${asset.id}/${asset.fileName}`;
}

/** `<url>?w=320 320w, <url>?w=640 640w, …`: the copies an `<img srcset>` chooses from. */
export function srcsetOf(asset: { id: number; fileName: string; width: number }): string {
  const url = assetUrl(asset);
  return widthsFor(asset.width)
    .map((w) => `${url}?w=${w} ${w}w`)
    .join(', ');
}
