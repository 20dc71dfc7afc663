import { createHmac, timingSafeEqual } from 'node:crypto';
import { EVENT_TOLERANCE_SECONDS, type EventCheck } from './providers/provider.ts';

// Event signatures in Stripe's scheme: header `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
// The timestamp is signed with the body, so an old event cannot be sent again with a fresh time.

export function signEvent(rawBody: string, secret: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${hmac(secret, `${t}.${rawBody}`)}`;
}

export function checkEventSignature(
  rawBody: string,
  header: string | undefined,
  secret: string,
  now: Date,
): EventCheck {
  if (!header) return 'missing';
  const parts = header.split(',').map((p) => p.split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k]) => k === 'v1').map(([, v]) => v ?? '');
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return 'forged';
  const expected = Buffer.from(hmac(secret, `${t}.${rawBody}`), 'hex');
  const matches = signatures.some((s) => {
    const given = Buffer.from(s, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) return 'forged';
  const age = Math.floor(now.getTime() / 1000) - Number(t);
  return Math.abs(age) > EVENT_TOLERANCE_SECONDS ? 'stale' : 'valid';
}

function hmac(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}
