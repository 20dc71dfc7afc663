import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { AppError } from '../../http/errors.ts';

/** Addresses a webhook may never reach unless private targets are allowed: the service's own network. */
const privateRanges = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  privateRanges.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return privateRanges.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return privateRanges.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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
  if (!policy.allowPrivate && (isIP(host) ? isPrivateAddress(host) : host === 'localhost')) {
    throw new AppError('UNPROCESSABLE', 'webhook targets may not be loopback, private or link-local', [
      { field: 'url', message: 'private address' },
    ]);
  }
}

/**
 * A DNS lookup for the delivery's own connection that refuses private answers: checking the name
 * before connecting and resolving it again to connect would let a name change between the two.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as { address: string; family: number }[];
      const refused = !allowPrivate && list.some((a) => isPrivateAddress(a.address));
      if (refused) {
        return callback(new Error(`${hostname} resolves to a private address`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
