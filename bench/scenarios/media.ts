import sharp from 'sharp';
import type { BenchContext, Scenario } from './types.ts';

// Media (docs/media.md): serving a kept 640 px WebP copy against R; and, measured once in the
// setup and printed, the first resize of a 12-megapixel JPEG and the service's RSS while 20
// uploads of 8 MB run at once.

const UPLOADS_AT_ONCE = 20;

/** A photo-like JPEG: a gradient with grain, `grain` setting how much the encoder must keep. */
async function photo(width: number, height: number, grain: number, quality: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const noise = grain ? Math.floor(Math.random() * grain) : 0;
      pixels[at] = ((x * 255) / width + noise) & 255;
      pixels[at + 1] = ((y * 255) / height + noise) & 255;
      pixels[at + 2] = (128 + noise) & 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

async function upload(ctx: BenchContext, bytes: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const res = await fetch(`${ctx.baseUrl}/rest/media/asset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.state.mediaAdmin}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

async function firstResize(ctx: BenchContext): Promise<void> {
  const url = await upload(ctx, await photo(4000, 3000, 24, 85), 'twelve-megapixels.jpg');
  const started = performance.now();
  const res = await fetch(`${ctx.baseUrl}${url}?w=1280&format=webp`);
  await res.arrayBuffer();
  const ms = performance.now() - started;
  console.log(`media: first resize of a 12 MP JPEG to 1280 px WebP: ${Math.round(ms)} ms (${res.status})`);
}

async function rssUnderUploads(ctx: BenchContext): Promise<void> {
  const big = await photo(4000, 3000, 90, 92);
  const before = ctx.serverRssMb();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, ctx.serverRssMb());
  }, 20);
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, (_, i) => upload(ctx, big, `big-${i}.jpg`)));
  } finally {
    clearInterval(sampler);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const mb = (big.length / 1024 / 1024).toFixed(1);
  console.log(
    `media: ${UPLOADS_AT_ONCE} uploads of ${mb} MB at once in ${seconds} s: RSS ${before} MB before, ${peak} MB at most`,
  );
}

async function setup(ctx: BenchContext): Promise<void> {
  ctx.state.mediaAdmin ??= await ctx.adminToken();
  const url = await upload(ctx, await photo(1600, 1200, 12, 85), 'kept.jpg');
  ctx.state.keptCopy = `${url}?w=640&format=webp`;
  await (await fetch(ctx.baseUrl + ctx.state.keptCopy)).arrayBuffer();
  await firstResize(ctx);
  await rssUnderUploads(ctx);
}

export const mediaScenarios: Scenario[] = [
  {
    group: 'media',
    name: 'media: a kept 640 px WebP copy',
    target: 0.5,
    setup,
    request: (ctx) => ({ path: ctx.state.keptCopy }),
  },
];
