import { isIP } from 'node:net';
import { AppError } from '../../http/errors.ts';
import { isPrivateAddress, RefusedTarget } from '../../lib/public-address.ts';

// The address policy of webhook targets; which addresses are private is src/lib/public-address.ts.

export interface TargetPolicy {
  httpsOnly: boolean;
  allowPrivate: boolean;
}

/** Refuses, at create and update, a URL that could never be delivered to under the policy. */
export function assertTargetUrl(raw: string, policy: TargetPolicy): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('VALIDATION_FAILED', 'url is not a URL', [{ field: 'url', message: 'not a URL' }]);
  }
  const allowed = policy.httpsOnly ? ['https:'] : ['https:', 'http:'];
  if (!allowed.includes(url.protocol)) {
    throw new AppError('UNPROCESSABLE', `webhook targets must use ${allowed.join(' or ')}`, [
      { field: 'url', message: 'scheme not allowed' },
    ]);
  }
  if (url.username || url.password) {
    throw new AppError('UNPROCESSABLE', 'webhook targets carry no credentials in the URL', [
      { field: 'url', message: 'credentials not allowed' },
    ]);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // A name is checked again at every attempt, on the addresses it then resolves to (guardedLookup).
  const local = host === 'localhost' || host.endsWith('.localhost');
  if (!policy.allowPrivate && (isIP(host) ? isPrivateAddress(host) : local)) {
    throw new AppError(
      'UNPROCESSABLE',
      "webhook targets may not be private, reserved or the service's own addresses",
      [{ field: 'url', message: 'private address' }],
    );
  }
}

export const REFUSED = 'target refused: private address';

/**
 * What an attempt's record says of a failed connection: a generic reason. The network's own
 * message (ECONNREFUSED 10.0.0.5:8080, a certificate's names) maps the service's surroundings for
 * whoever reads the deliveries; it goes to the log only.
 */
export function failureReason(err: Error): string {
  if (err instanceof RefusedTarget) return REFUSED;
  const code = 'code' in err ? err.code : undefined;
  if (err.message === 'timed out' || code === 'ETIMEDOUT') return 'timed out';
  return 'connection failed';
}
