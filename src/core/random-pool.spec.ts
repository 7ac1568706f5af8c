import { randomId, randomSlice } from './random-pool.js';

describe('random pool', () => {
  it('hands out ids of 128 bits in base64url, none twice across many refills', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5000; i++) ids.add(randomId());
    expect(ids.size).toBe(5000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('gives every caller bytes of its own until the pool is refilled', () => {
    const first = Buffer.from(randomSlice(12));
    const second = randomSlice(12);
    expect(second.length).toBe(12);
    expect(second.equals(first)).toBe(false);
    expect(randomId(9)).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('serves a request larger than the pool from the CSPRNG directly', () => {
    const big = randomSlice(10_000);
    expect(big.length).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});
