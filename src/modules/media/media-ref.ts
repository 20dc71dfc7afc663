/**
 * An uploaded image as an owner (product, variant, slide, reel) keeps and shows it: resolved from
 * the asset when the owner is written, so reads need no join. `srcset` lists the resized copies an
 * `<img srcset>` can choose from (widths up to the original's).
 */
export interface MediaRef {
  id: number;
  url: string;
  alt: string;
  width: number;
  height: number;
  srcset: string;
}
