/**
 * Pools of MRTR retries prefetched before a measured run: `size` flows, each walked up to the
 * round to measure (see mrtr-flow.ts), each with arguments of its own (`a = 2 + i`, `b = 3 - i`,
 * so the answer stays "5" and no two flows, and so no two tokens, are alike). autocannon sends a
 * connection's share of the pool in turn, each request prebuilt (load.ts), so a token is sent again
 * only after every other token of the pool: fresh within a window of `size` requests.
 */
import { Agent } from 'node:http';

import { walkFlow, type FlowCall } from './mrtr-flow.js';
import type { FixedRequest } from './load.js';

/** Concurrent flows while prefetching (the load's connection count). */
const PREFETCH_CONCURRENCY = 10;

/** The `i`-th flow's arguments: distinct per flow, always adding up to 5. */
export const distinctPair = (i: number) => ({ a: 2 + i, b: 3 - i });

/**
 * Walks `size` flows of `callOf(i)` up to round `round` (1: the first retry) and returns the
 * request to repeat: the first flow's retry as `body` (the probes send it), every flow's as `pool`.
 */
export async function prefetchRetries(
  url: string,
  size: number,
  round: number,
  callOf: (i: number) => FlowCall,
): Promise<FixedRequest> {
  const agent = new Agent({ keepAlive: true, maxSockets: PREFETCH_CONCURRENCY });
  const bodies = new Array<string>(size);
  let headers: Readonly<Record<string, string>> | undefined;
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: Math.min(PREFETCH_CONCURRENCY, size) }, async () => {
        while (next < size) {
          const i = next++;
          const walked = await walkFlow(url, callOf(i), round, agent);
          if (typeof walked === 'string') throw new Error(`prefetching retry ${i + 1} of ${size}: ${walked}`);
          bodies[i] = walked.next.body;
          headers ??= walked.next.headers;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { headers: headers!, body: bodies[0]!, pool: bodies };
}
