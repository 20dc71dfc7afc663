import { lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';

// What the service may reach on a URL someone else gave it (a webhook's target, an imported
// image's address): never its own network. Used by webhooks (docs/events.md) and the catalog
// import's image fetch (docs/import-export.md).

// Addresses an outgoing request may never reach unless private targets are allowed: the service's
// own network and every special-purpose range of RFC 6890's registries (private, shared, loopback,
// link-local, documentation, benchmarking, relays, multicast, reserved, broadcast).
const reserved = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  reserved.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  reserved.addSubnet(net, prefix, 'ipv6');
}

/** IPv6 prefixes that carry an IPv4 address (IPv4-mapped, NAT64, 6to4): the one it carries is checked. */
const carriers = [
  { net: '::ffff:0:0', prefix: 96, word: 6 },
  { net: '64:ff9b::', prefix: 96, word: 6 },
  { net: '2002::', prefix: 16, word: 1 },
].map(({ net, prefix, word }) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, 'ipv6');
  return { list, word };
});

/** The eight 16-bit words of a valid IPv6 address (a dotted IPv4 tail included). */
function ipv6Words(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : address;
  const [head, tail] = text.split('::');
  const words = (part: string | undefined) =>
    part ? part.split(':').map((w) => Number.parseInt(w, 16)) : [];
  if (tail === undefined) return words(head);
  const [before, after] = [words(head), words(tail)];
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The IPv4 address an IPv6 one carries, if it is of a carrying prefix. */
function carriedIpv4(address: string): string | undefined {
  const carrier = carriers.find(({ list }) => list.check(address, 'ipv6'));
  if (!carrier) return undefined;
  const words = ipv6Words(address);
  const [high, low] = [words[carrier.word], words[carrier.word + 1]];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The host's own interface addresses, read at each check (interfaces come and go). */
export function ownAddresses(): BlockList {
  const own = new BlockList();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      own.addAddress(entry.address.replace(/%.*$/, ''), entry.family === 'IPv6' ? 'ipv6' : 'ipv4');
    }
  }
  return own;
}

/** True for an address an outgoing request may not reach unless private targets are allowed (also a non-address). */
export function isPrivateAddress(address: string, own: BlockList = ownAddresses()): boolean {
  const bare = address.replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (reserved.check(bare, type) || own.check(bare, type)) return true;
  const carried = family === 6 ? carriedIpv4(bare) : undefined;
  return carried !== undefined && isPrivateAddress(carried, own);
}

/** A target refused by the address policy (not a network failure). */
export class RefusedTarget extends Error {}

/**
 * A DNS lookup for an outgoing request's own connection that refuses private answers: checking
 * the name before connecting and resolving it again to connect would let a name change between
 * the two.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const own = allowPrivate ? undefined : ownAddresses();
      if (own && addresses.some((a) => isPrivateAddress(a.address, own))) {
        return callback(new RefusedTarget(`${hostname} resolves to a private address`), '', 0);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
