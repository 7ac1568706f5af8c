import type { CacheEntry, ResponseCacheStore } from '@modelcontextprotocol/client';

/**
 * A response cache that keeps nothing: the official client's default cache is per connection, and
 * a connection that carries many callers' tokens must not serve one caller's results to another.
 */
export const noResponseCache: ResponseCacheStore = {
  get: (): CacheEntry | undefined => undefined,
  set: () => 0,
  delete: () => undefined,
  evict: () => undefined,
  clear: () => undefined,
};
