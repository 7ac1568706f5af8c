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

/** How the client metadata documents are fetched (the resolved `clientMetadataDocuments` options). */
export interface ClientMetadataFetchOptions {
  readonly allowPrivateAddresses: boolean;
  readonly timeoutMs: number;
}

/** How long a failed fetch of a document is answered with its failure, without fetching again. */
const FAILURE_MEMORY_MS = 10_000;
const MAX_REMEMBERED_FAILURES = 100;

/**
 * oidc-provider's `fetch` for client metadata documents: bounded in time, refusing special-use
 * addresses (unless allowed), and remembering a failure for a few seconds. oidc-provider looks the
 * client up a second time to render the error of a refused authorization request; without the
 * memory a document that times out would be fetched twice and hold the request for twice the
 * timeout, and every request of an unreachable client id would send the server out again.
 */
export function clientMetadataFetch(options: ClientMetadataFetchOptions): typeof fetch {
  const failures = new Map<string, { readonly error: unknown; readonly until: number }>();
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const failed = failures.get(url.href);
    if (failed && failed.until > Date.now()) throw failed.error;
    failures.delete(url.href);
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(init?.signal ? [init.signal] : [])]);
    // oidc-provider's dispatcher refuses special-use addresses where the runtime lets it; ours
    // refuses them first, everywhere. For development, `allowPrivateAddresses` lifts both.
    const { dispatcher, ...rest } = (init ?? {}) as RequestInit & { dispatcher?: unknown };
    try {
      if (!options.allowPrivateAddresses) await assertPublicHost(url);
      return await fetch(url, {
        ...rest,
        ...(!options.allowPrivateAddresses && dispatcher ? { dispatcher } : {}),
        signal,
      } as RequestInit);
    } catch (error) {
      if (failures.size >= MAX_REMEMBERED_FAILURES) failures.delete(failures.keys().next().value!);
      failures.set(url.href, { error, until: Date.now() + FAILURE_MEMORY_MS });
      throw error;
    }
  };
}
