import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Addresses a client metadata document is never fetched from: loopback, private, link-local, reserved. */
const SPECIAL_USE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL_USE.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` (an IP literal) is one a server must not be made to fetch from. */
export function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return SPECIAL_USE.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? SPECIAL_USE.check(mapped[1]!, 'ipv4') : SPECIAL_USE.check(address, 'ipv6');
}

/**
 * Refuses a URL whose host is, or resolves to, a special-use address. oidc-provider checks the
 * address it connects to as well, where it can (not under every runtime); this check runs first,
 * whatever the runtime, so a client id cannot point the server at its own network.
 */
export async function assertPublicHost(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  if (addresses.length === 0 || addresses.some(isSpecialUseAddress)) {
    throw new Error(`${url.host} is a loopback, private or reserved address`);
  }
}
