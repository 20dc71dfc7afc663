import sharp from 'sharp';
import type { Db } from '../db/client.ts';
import { mediaAssets } from '../modules/media/media.tables.ts';
import type { MediaRef } from '../modules/media/media-ref.ts';
import { assetUrl, srcsetOf, storageKeys } from '../modules/media/media-urls.ts';
import type { MediaStorage } from '../modules/media/storage/storage.ts';
import type { DemoProduct } from './demo-catalog.ts';

// A picture for every demo product, drawn here (no network, no file in the repository): a
// gradient in its category's colour with a disc whose place and shade come from the product, so
// the back office and the storefront show distinct images from the first start. Drawn as raw
// pixels and encoded once: an SVG with text would cost five times as much per picture.

const SIDE = 320;
const CHUNK = 100;

/** Hue, saturation, lightness (0..1) → 8-bit RGB. */
function rgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

function drawPixels(leafIndex: number, n: number): Buffer {
  const hue = ((leafIndex * 67) % 360) / 360;
  const pixels = Buffer.alloc(SIDE * SIDE * 3);
  const cx = 100 + ((n * 53) % 120);
  const cy = 100 + ((n * 97) % 120);
  const radius = 50 + ((n * 31) % 40);
  const disc = rgb((hue + 0.5) % 1, 0.55, 0.88);
  for (let y = 0; y < SIDE; y++) {
    const shade = rgb(hue, 0.6, 0.78 - (0.35 * y) / SIDE);
    for (let x = 0; x < SIDE; x++) {
      const at = (y * SIDE + x) * 3;
      const inside = (x - cx) ** 2 + (y - cy) ** 2 < radius ** 2;
      const [r, g, b] = inside ? disc : shade;
      pixels[at] = r;
      pixels[at + 1] = g;
      pixels[at + 2] = b;
    }
  }
  return pixels;
}

/** One JPEG per product, in the products' order. */
export async function demoPictures(products: DemoProduct[]): Promise<Buffer[]> {
  const pictures: Buffer[] = [];
  for (const [n, p] of products.entries()) {
    const raw = sharp(drawPixels(p.leafIndex, n), { raw: { width: SIDE, height: SIDE, channels: 3 } });
    pictures.push(await raw.jpeg({ quality: 80, optimiseCoding: false, chromaSubsampling: "4:2:0" }).toBuffer());
  }
  return pictures;
}

/** The pictures as media assets (rows and files), answered as each product's media. */
export async function insertDemoImages(
  tx: Db,
  storage: MediaStorage,
  products: DemoProduct[],
  pictures: Buffer[],
): Promise<MediaRef[][]> {
  const refs: MediaRef[][] = [];
  for (let from = 0; from < products.length; from += CHUNK) {
    const rows = products.slice(from, from + CHUNK).map((p, i) => ({
      fileName: `${p.slug.slice(0, 60).replace(/-+$/, '')}.jpg`,
      format: 'jpeg',
      mimeType: 'image/jpeg',
      width: SIDE,
      height: SIDE,
      bytes: pictures[from + i].length,
      alt: p.name,
    }));
    const inserted = await tx.insert(mediaAssets).values(rows).returning();
    for (const [i, asset] of inserted.entries()) {
      await storage.put(storageKeys.original(asset.id, 'jpeg'), pictures[from + i], 'image/jpeg');
      const ref = { id: asset.id, url: assetUrl(asset), alt: asset.alt, width: SIDE, height: SIDE };
      refs.push([{ ...ref, srcset: srcsetOf(asset) }]);
    }
  }
  return refs;
}
