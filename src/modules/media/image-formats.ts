// Image formats as the media module knows them: recognised from the first bytes of a file (never
// its name or declared type), the widths resized copies come in, and the format an answer takes.

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** What `?format=` may ask for; `auto` is chosen from the request's Accept. */
export const OUTPUT_FORMATS = ['webp', 'avif', 'jpeg', 'png', 'auto'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The only widths a copy is made in: a fixed list bounds what the storage can be made to hold. */
export const COPY_WIDTHS = [64, 128, 256, 320, 480, 640, 768, 960, 1280, 1600, 2048] as const;

export const MIME_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};

export const EXTENSIONS: Record<ImageFormat, string> = {
  jpeg: 'jpg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};

/** How many leading bytes `sniffFormat` reads. */
export const SNIFF_BYTES = 64;

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** AVIF is an ISO-BMFF file whose `ftyp` box names an AVIF brand (major or compatible). */
function isAvif(head: Uint8Array): boolean {
  if (head.length < 16 || ascii(head, 4, 8) !== 'ftyp') return false;
  const boxSize = Math.min(head.length, (head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3]);
  for (let at = 8; at + 4 <= boxSize; at += 4) {
    if (at === 12) continue; // the minor version, not a brand
    const brand = ascii(head, at, at + 4);
    if (brand === 'avif' || brand === 'avis') return true;
  }
  return false;
}

/** The image format of a file from its first bytes, or undefined when it is none of those accepted. */
export function sniffFormat(head: Uint8Array): ImageFormat | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return 'gif';
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (isAvif(head)) return 'avif';
  return undefined;
}

/**
 * The format of an answer: the one asked for, `auto` → AVIF or WebP when Accept names it, else
 * the original's.
 */
export function answerFormat(
  asked: OutputFormat | undefined,
  accept: string | undefined,
  original: ImageFormat,
): ImageFormat {
  if (asked && asked !== 'auto') return asked;
  if (asked === 'auto') {
    const types = (accept ?? '').toLowerCase();
    if (types.includes('image/avif')) return 'avif';
    if (types.includes('image/webp')) return 'webp';
  }
  return original;
}

/** The copy widths not wider than the original (at least the smallest). */
export function widthsFor(originalWidth: number): number[] {
  const fitting = COPY_WIDTHS.filter((w) => w <= originalWidth);
  return fitting.length ? fitting : [COPY_WIDTHS[0]];
}

/**
 * The name in an asset's URL, from the uploaded one: letters, digits and dashes of its base name
 * (no directory part, no NUL, no dots), at most 60 of them, then the extension of the format the
 * bytes have. Never a path: the storage's keys are built from the asset's id.
 */
export function safeFileName(uploaded: string | undefined, format: ImageFormat): string {
  const base = (uploaded ?? '').split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${stem || 'image'}.${EXTENSIONS[format]}`;
}
