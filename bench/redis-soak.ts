// Soak of @mocapi/nestjs/redis: modern two-round flows (an exactly-once tool that elicits once)
// across three nodes (child processes) sharing a real redis-server, behind a real nginx with round
// robin. Samples each node's RSS; prints start / end / peak RSS per node, the error count and how
// often the handler ran (it must equal the flows completed).
//
//   npm run soak -- [--flows 100000] [--concurrency 32] [--json bench/out/soak.json]
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { startNginx } from '../test/multi-node/nginx-balancer.js';
import { rpc } from '../test/support/raw-mcp.js';
import { startRedis } from '../test/support/redis-server.js';
import { killNodes, type NodeProcess, startNode } from '../test/redis/redis-nodes.js';
import { option } from './cli-option.js';

const FLOWS = option('flows', 100_000);
const CONCURRENCY = option('concurrency', 32);
const JSON_OUT = option('json');
const SAMPLE_MS = 1000;
const MB = 1024 * 1024;

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One tools/call through the balancer: status and parsed body. */
async function call(url: string, extra: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const params = { name: 'place_order', arguments: {}, ...extra };
  const response = await rpc(url, 'tools/call', params, { capabilities: { elicitation: {} }, agent });
  return { status: response.status, body: response.json };
}

/** One flow: the question, then the answer; true when it completed as expected. */
async function flow(url: string): Promise<boolean> {
  const first = await call(url, {});
  const asked = first.body?.result;
  if (first.status !== 200 || asked?.resultType !== 'input_required') return false;
  const final = await call(url, {
    requestState: asked.requestState,
    inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
  });
  return final.status === 200 && final.body?.result?.structuredContent?.placed === true;
}

const redis = await startRedis();
const nodes: NodeProcess[] = [];
try {
  for (const name of ['node-a', 'node-b', 'node-c']) {
    nodes.push(
      await startNode({
        name,
        redisUrl: redis.url,
        keyPrefix: 'soak:',
        rateLimit: 1_000_000,
        rateTtlMs: 60_000,
        flowClaimTtlMs: 15_000,
      }),
    );
  }
  const balancer = await startNginx(nodes.map((n) => n.port));
  try {
    // Warm-up (JIT, connection pools), then the start sample.
    for (let i = 0; i < 300; i++) await flow(balancer.url);
    const samples: number[][] = [];
    const sample = () => samples.push(nodes.map((n) => n.rss()));
    sample();
    const sampler = setInterval(sample, SAMPLE_MS);
    const startedAt = Date.now();
    let next = 0;
    let errors = 0;
    let completed = 0;
    let lastReport = startedAt;
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < FLOWS) {
          next++;
          try {
            if (await flow(balancer.url)) completed++;
            else errors++;
          } catch (error) {
            errors++;
            if (failures.length < 5) failures.push(String(error));
          }
          if (Date.now() - lastReport > 10_000) {
            lastReport = Date.now();
            process.stderr.write(`  ${completed + errors} flows, ${errors} errors\n`);
          }
        }
      }),
    );
    const seconds = (Date.now() - startedAt) / 1000;
    clearInterval(sampler);
    sample();
    const ran = nodes.map(
      (n) =>
        n
          .output()
          .split('\n')
          .filter((line) => line.startsWith('RAN ')).length,
    );
    const report = {
      flows: FLOWS,
      requests: FLOWS * 2,
      concurrency: CONCURRENCY,
      seconds: Math.round(seconds),
      flowsPerSecond: Math.round(FLOWS / seconds),
      errors,
      completed,
      // The 300 warm-up flows ran the handler too.
      handlerRuns: ran.reduce((a, b) => a + b, 0) - 300,
      nodes: nodes.map((n, i) => ({
        node: n.name,
        handlerRuns: ran[i],
        rssStartMb: +(samples[0]![i]! / MB).toFixed(1),
        rssEndMb: +(samples.at(-1)![i]! / MB).toFixed(1),
        rssPeakMb: +(Math.max(...samples.map((s) => s[i]!)) / MB).toFixed(1),
        alive: n.alive(),
      })),
      failures,
    };
    console.log(JSON.stringify(report, null, 2));
    if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = errors === 0 && report.handlerRuns === completed ? 0 : 1;
  } finally {
    await balancer.stop();
  }
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
  killNodes();
  await redis.stop();
  agent.destroy();
}
