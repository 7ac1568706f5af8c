import { META_SERVER_INFO } from '../protocol/meta-keys.js';

/**
 * A 2026-07-28 result in its 2025 shape: no `resultType`, no cache hints, no modern `_meta`
 * stamping (the handler's own `_meta` entries stay).
 */
export function toLegacyResult(result: Record<string, unknown>): Record<string, unknown> {
  const { resultType: _resultType, ttlMs: _ttlMs, cacheScope: _cacheScope, _meta, ...rest } = result;
  if (_meta !== null && typeof _meta === 'object') {
    const { [META_SERVER_INFO]: _serverInfo, ...own } = _meta as Record<string, unknown>;
    if (Object.keys(own).length > 0) rest['_meta'] = own;
  }
  return rest;
}
