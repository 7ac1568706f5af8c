// The measuring client of bench/idle-streams.ts: a closed loop of tools/call `add` on a few
// keep-alive connections, each sending its next call when the last one was answered.
import { Agent, request } from 'node:http';
import { envelope, mcpHeaders } from '../../test/support/raw-mcp.js';

export interface Latency {
  calls: number;
  p50: number;
  p99: number;
}

const BODY_PREFIX = '{"jsonrpc":"2.0","id":';
const BODY_SUFFIX = `,"method":"tools/call","params":${JSON.stringify({ name: 'add', arguments: {}, _meta: envelope() })}}`;
const HEADERS = mcpHeaders('tools/call', 'add');

function call(url: string, agent: Agent, id: number): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: HEADERS, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`tools/call answered ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on('error', reject);
    req.end(`${BODY_PREFIX}${id}${BODY_SUFFIX}`);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** `connections` callers, one call after another each, for `seconds`; latencies in ms. */
export async function closedLoop(url: string, connections: number, seconds: number): Promise<Latency> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  let id = 1;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until) latencies.push(await call(url, agent, id++));
      }),
    );
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    p50: Number(percentile(latencies, 0.5).toFixed(3)),
    p99: Number(percentile(latencies, 0.99).toFixed(3)),
  };
}
