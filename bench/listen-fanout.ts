// Fan-out under load: N reading subscriptions/listen streams (default 2,000) while list_changed fires
// back to back inside the server (the next event is published once the previous reached every
// stream); meanwhile one other client sends tools/list in a loop. Prints tools/list p50/p99 with
// the server idle and while the events fire, the events fired and the notifications the streams read.
// The server runs in a child process (same file, `--server`). Reported, never asserted.
//
//   node --import ./test/stdio/swc-register.mjs bench/listen-fanout.ts [--streams 2000] [--seconds 5]
//        [--adapter fastify|express] [--json bench/out/listen-fanout.json]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { envelope, mcpHeaders } from '../test/support/raw-mcp.js';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

const STREAMS = Number(option('streams', '2000'));
const SECONDS = Number(option('seconds', '5'));
const ADAPTER = option('adapter', 'fastify');
const JSON_OUT = option('json', '');

type Ask = { id: number; op: 'fire'; ms: number };

async function server(): Promise<void> {
  await import('reflect-metadata');
  const { Injectable, Module } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  const { ExpressAdapter } = await import('@nestjs/platform-express');
  const { FastifyAdapter } = await import('@nestjs/platform-fastify');
  const { McpEventBus, McpModule, McpTool } = await import('../src/index.js');

  @Injectable()
  class Tools {
    @McpTool({ name: 'add', description: 'Adds two numbers' })
    add(): string {
      return '2';
    }
  }
  @Module({
    imports: [McpModule.forRoot({ name: 'listen-fanout', version: '1.0.0', mrtr: { secrets: ['s'.repeat(40)] } })],
    providers: [Tools],
  })
  class FanoutModule {}

  const app = await NestFactory.create(
    FanoutModule,
    ADAPTER === 'express' ? new ExpressAdapter() : new FastifyAdapter(),
    {
      logger: ['error', 'warn'],
    },
  );
  await app.listen(0, '127.0.0.1');
  const bus = app.get(McpEventBus);
  process.on('message', (ask: Ask) => {
    let fired = 0;
    const until = Date.now() + ask.ms;
    // Subscribed after every stream, so it hears each event last: the next one goes out then.
    const off = bus.subscribe(() => {
      if (Date.now() < until) setImmediate(fire);
      else {
        off();
        process.send!({ id: ask.id, fired });
      }
    });
    const fire = () => {
      fired++;
      bus.publish({ kind: 'list_changed', list: 'tools' });
    };
    fire();
  });
  process.on('disconnect', () => void app.close().then(() => process.exit(0)));
  process.send!({ port: (app.getHttpServer().address() as { port: number }).port });
}

const listenAgent = new Agent({ keepAlive: false, maxSockets: Infinity });
const callAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/** Opens one listen stream; resolves once it is acknowledged; counts what it reads. */
function listen(url: string, id: number, counter: { notifications: number }): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true }, _meta: envelope() },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: mcpHeaders('subscriptions/listen'), agent: listenAgent },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (chunk.includes('acknowledged')) resolve();
          counter.notifications += chunk.split('list_changed').length - 1;
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function toolsList(url: string, id: number): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: envelope() } });
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: mcpHeaders('tools/list'), agent: callAgent }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`tools/list answered ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** tools/list latencies, one call after another, until `done()`. */
async function sample(url: string, done: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  let id = 1_000_000;
  while (!done()) latencies.push(await toolsList(url, id++));
  return latencies.sort((a, b) => a - b);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
const summary = (sorted: number[]) => ({
  calls: sorted.length,
  p50: Number(percentile(sorted, 0.5).toFixed(2)),
  p99: Number(percentile(sorted, 0.99).toFixed(2)),
});

async function main(): Promise<void> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--server', ...process.argv.slice(2)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
  const url = `http://127.0.0.1:${port}/mcp`;
  const counter = { notifications: 0 };
  for (let i = 0; i < STREAMS; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, STREAMS - i) }, (_, j) => listen(url, i + j + 1, counter)));
  }

  const idleUntil = Date.now() + SECONDS * 1000;
  const idle = summary(await sample(url, () => Date.now() > idleUntil));

  let fired: number | undefined;
  const firing = new Promise<number>((resolve) => {
    child.once('message', (m: { fired: number }) => resolve(m.fired));
    child.send({ id: 1, op: 'fire', ms: SECONDS * 1000 });
  }).then((n) => (fired = n));
  const busy = summary(await sample(url, () => fired !== undefined));
  await firing;

  const result = {
    adapter: ADAPTER,
    streams: STREAMS,
    seconds: SECONDS,
    node: process.version,
    idle,
    whileFiring: busy,
    eventsFired: fired,
    eventsPerSecond: Math.round(fired! / SECONDS),
    notificationsRead: counter.notifications,
  };
  console.log(JSON.stringify(result, null, 2));
  if (JSON_OUT) writeFileSync(JSON_OUT, `${JSON.stringify(result, null, 2)}\n`);
  child.disconnect();
  listenAgent.destroy();
  callAgent.destroy();
  process.exit(0);
}

if (process.argv.includes('--server')) void server();
else void main();
