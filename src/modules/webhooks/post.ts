import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { guardedLookup, isPrivateAddress } from '../../lib/public-address.ts';
import { failureReason, REFUSED } from './targets.ts';

// One attempt on the wire: a Standard Webhooks signed POST, to a checked address, bounded whole.

export interface PostSettings {
  timeoutMs: number;
  allowPrivate: boolean;
  httpsOnly: boolean;
  /** Told the network's own message of a failed attempt, which the delivery's record does not keep. */
  onNetworkError?: (failure: { url: string; error: string }) => void;
}

export interface Outcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** The URL to post to, or why no request is made (the reason recorded with the attempt). */
function allowedTarget(url: string, settings: PostSettings): URL | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'invalid url';
  }
  if (settings.httpsOnly && target.protocol !== 'https:') return 'https required';
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // Node skips the lookup for a literal address, so the guard checks it here.
  if (!settings.allowPrivate && isIP(host) && isPrivateAddress(host)) return REFUSED;
  return target;
}

/** One signed POST; never throws (a failure is an outcome). */
export async function post(
  url: string,
  secret: string,
  messageId: string,
  body: string,
  settings: PostSettings,
): Promise<Outcome> {
  const started = performance.now();
  const done = (ok: boolean, status: number | null, error: string | null): Outcome => ({
    ok,
    status,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const target = allowedTarget(url, settings);
  if (typeof target === 'string') return done(false, null, target);
  const failed = (err: Error, status: number | null) => {
    settings.onNetworkError?.({ url: target.origin, error: err.message });
    return done(false, status, failureReason(err));
  };
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(messageId, timestamp, body);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        lookup: guardedLookup(settings.allowPrivate),
        timeout: settings.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'shop-rest-api-webhooks',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          resolve(done(status >= 200 && status < 300, status, null));
        });
        response.on('error', (err) => resolve(failed(err, response.statusCode ?? null)));
      },
    );
    // The whole attempt, not only an idle socket, is bounded by the timeout.
    const deadline = setTimeout(() => request.destroy(new Error('timed out')), settings.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (err) => resolve(failed(err, null)));
    request.end(body);
  });
}
