import { randomFillSync } from 'node:crypto';

/*
 * Each call into the CSPRNG costs microseconds whatever its size (4-8 us for 16 bytes on this
 * project's machines), as much as the rest of a first elicitation round; so random bytes come from
 * a pool refilled from it when used up. Every byte is handed out once.
 */
const pool = Buffer.alloc(4096);
let offset = pool.length;

/**
 * `length` fresh random bytes, a view into the pool: copy or encode them before the next call
 * (the pool is refilled in place once used up).
 */
export function randomSlice(length: number): Buffer {
  if (length > pool.length) return randomFillSync(Buffer.alloc(length));
  if (offset + length > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const slice = pool.subarray(offset, offset + length);
  offset += length;
  return slice;
}

/** A random id: `bytes` random bytes (default 16, 128 bits) as base64url without padding. */
export function randomId(bytes = 16): string {
  return randomSlice(bytes).toString('base64url');
}
