import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardedLookup, isPrivateAddress, RefusedTarget } from '../../lib/public-address.ts';
import { SNIFF_BYTES } from '../media/image-formats.ts';
import type { ReceivedFile } from '../media/media.service.ts';

// One image address of an import's file, downloaded to a temporary file as an upload would be
// received: only http(s), never a private address (the connection's own DNS answer is checked, as
// webhooks do), at most `maxBytes`, the whole fetch bounded by `timeoutMs`. A few redirects are
// followed, each checked the same way.

export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

/** Why an address gave no image, in the words of the import's report. */
export class DownloadFailed extends Error {}

const REDIRECTS = 3;

function checkedTarget(raw: string, limits: DownloadLimits): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DownloadFailed('is not an address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadFailed('is not an http(s) address');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node skips the lookup for a literal address, so the guard checks it here.
  if (!limits.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new DownloadFailed('is a private address');
  return url;
}

type Answer = { redirect: string } | { saved: true };

/** One request: the body to `path` (with its first bytes in `into.head`), or where it redirects. */
function fetchOnce(url: URL, path: string, into: { head: Buffer }, limits: DownloadLimits, signal: AbortSignal) {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = client.get(
      url,
      { lookup: guardedLookup(limits.allowPrivate), signal, headers: { accept: 'image/*', 'user-agent': 'shop-rest-api-import' } },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ redirect: new URL(response.headers.location, url).href });
        }
        if (status !== 200) {
          response.resume();
          return reject(new DownloadFailed(`answered ${status}`));
        }
        if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes) {
          response.destroy();
          return reject(new DownloadFailed(`is over ${limits.maxBytes} bytes`));
        }
        const file = createWriteStream(path);
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > limits.maxBytes) {
            response.destroy();
            file.destroy();
            return reject(new DownloadFailed(`is over ${limits.maxBytes} bytes`));
          }
          if (into.head.length < SNIFF_BYTES) {
            into.head = Buffer.concat([into.head, chunk.subarray(0, SNIFF_BYTES - into.head.length)]);
          }
        });
        response.on('error', reject);
        file.on('error', reject);
        file.on('finish', () => resolve({ saved: true }));
        response.pipe(file);
      },
    );
    request.on('error', reject);
  });
}

function failureOf(err: unknown, signal: AbortSignal, limits: DownloadLimits): DownloadFailed {
  if (err instanceof DownloadFailed) return err;
  if (signal.aborted) return new DownloadFailed(`gave no image within ${limits.timeoutMs} ms`);
  if (err instanceof RefusedTarget) return new DownloadFailed('is a private address');
  // The network's own words (ECONNREFUSED 10.0.0.5:80) would map the service's surroundings.
  return new DownloadFailed('could not be reached');
}

/** The address's file name, from which the asset's is made safe (media's safeFileName). */
function lastSegment(url: URL): string | undefined {
  const last = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || undefined;
  } catch {
    return last || undefined;
  }
}

/** The image at `raw`, as a file the caller removes (`dropDownload`); DownloadFailed says why not. */
export async function downloadImage(raw: string, limits: DownloadLimits): Promise<ReceivedFile> {
  const path = join(tmpdir(), `shop-import-image-${randomBytes(12).toString('hex')}`);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const into = { head: Buffer.alloc(0) };
  try {
    let url = checkedTarget(raw, limits);
    for (let hops = 0; ; hops++) {
      const answer = await fetchOnce(url, path, into, limits, signal);
      if ('saved' in answer) break;
      if (hops >= REDIRECTS) throw new DownloadFailed('redirects too often');
      url = checkedTarget(answer.redirect, limits);
    }
    return { path, head: into.head, fileName: lastSegment(url) };
  } catch (err) {
    await rm(path, { force: true });
    throw failureOf(err, signal, limits);
  }
}

export async function dropDownload(file: ReceivedFile): Promise<void> {
  await rm(file.path, { force: true });
}
