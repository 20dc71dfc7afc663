import type { MediaImage } from '../catalog.ts';

/**
 * An image from media with its srcset (the copies the service makes, docs/media.md), its own
 * width and height (no layout shift) and `sizes` for where it is shown. The first image a
 * shopper sees (the product's, the first slide) is loaded at once; the rest when scrolled to.
 */
export function Picture(props: {
  image: MediaImage | undefined;
  alt?: string;
  sizes: string;
  /** The width of `src` for browsers without srcset. */
  fallbackWidth?: number;
  priority?: boolean;
  class?: string;
}) {
  const { image } = props;
  if (!image) return <div class={`no-image ${props.class ?? ''}`} role="presentation" />;
  const src = fallbackSrc(image, props.fallbackWidth ?? 320);
  return (
    <img
      class={props.class}
      src={src}
      srcset={image.srcset || undefined}
      sizes={props.sizes}
      width={image.width}
      height={image.height}
      alt={props.alt ?? image.alt}
      loading={props.priority ? 'eager' : 'lazy'}
      decoding={props.priority ? 'sync' : 'async'}
      fetchpriority={props.priority ? 'high' : undefined}
    />
  );
}

/** A copy is never wider than the original (docs/media.md): a small original is its own fallback. */
export function fallbackSrc(image: MediaImage, width: number): string {
  return image.width > width ? `${image.url}?w=${width}` : image.url;
}
