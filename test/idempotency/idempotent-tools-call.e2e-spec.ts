import { setTimeout as delay } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/client';
import { connectLegacyClient, type LegacyClient } from '../legacy/legacy-client.js';
import { initialize, LEGACY_VERSION } from '../legacy/legacy-wire.js';
import { connectOfficialClient } from '../support/official-client.js';
import { rpc, type RawResponse } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp, startApp } from '../support/start-app.js';
import { pollUntil, TASKS } from '../tasks/tasks-wire.js';
import { effects, gates, idempotencyModule } from './idempotency.fixtures.js';

/**
 * Idempotent tools/call (SEP-3182) on one node, with the in-memory store: a repeated key gets the
 * first call's answer (a result, a task, an error) and runs nothing; a key reused with other
 * arguments, or while its first call still runs, is refused; both eras; `tools.idempotency` is
 * declared in server/discover and in the 2025 initialize.
 */

let run = 0;
/** A label (and key) no other test uses. */
const fresh = (what: string) => `${what}-${++run}-${Date.now()}`;

const call = (url: string, params: Record<string, unknown>, user = 'alice', capabilities = {}): Promise<RawResponse> =>
  rpc(url, 'tools/call', params, { capabilities, headers: { 'x-user': user } });

describe.each(ADAPTERS)('idempotent tools/call (%s)', (adapter) => {
  let server: RunningApp;
  let modern: Client;
  let legacy: LegacyClient;

  beforeAll(async () => {
    server = await startApp(idempotencyModule(), adapter);
    modern = await connectOfficialClient(server.url);
    legacy = await connectLegacyClient(server.url);
  });
  afterAll(async () => {
    await modern?.close();
    await legacy?.close();
    await server?.close();
  });

  it('declares tools.idempotency in server/discover and in the 2025-era initialize', async () => {
    const discovered = await rpc(server.url, 'server/discover', {});
    expect(discovered.json.result.capabilities.tools).toEqual({ listChanged: true, idempotency: {} });
    // (The official client keeps only the capabilities its schema knows, so the wire is read here.)
    const initialized = await initialize(server.url, {
      protocolVersion: LEGACY_VERSION,
      capabilities: {},
      clientInfo: { name: 'idempotency-e2e', version: '1.0.0' },
    });
    expect(initialized.json.result.capabilities.tools).toEqual({ listChanged: true, idempotency: {} });
  });

  it('2026-07-28 (official client): a repeated key returns the first result and charges once; another key charges again', async () => {
    const label = fresh('modern');
    const key = fresh('key');
    const first = await modern.callTool({
      name: 'charge',
      arguments: { label, amount: 5 },
      idempotencyKey: key,
    } as never);
    const again = await modern.callTool({
      name: 'charge',
      arguments: { amount: 5, label },
      idempotencyKey: key,
    } as never);
    expect(first.content).toEqual([{ type: 'text', text: `charged 5 for ${label}: effect #1` }]);
    expect(again.content).toEqual(first.content);
    expect(effects.get(label)).toBe(1);

    const other = await modern.callTool({
      name: 'charge',
      arguments: { label, amount: 5 },
      idempotencyKey: fresh('key'),
    } as never);
    expect(other.content).toEqual([{ type: 'text', text: `charged 5 for ${label}: effect #2` }]);
    // Without a key nothing changes: every call charges.
    await modern.callTool({ name: 'charge', arguments: { label, amount: 5 } });
    expect(effects.get(label)).toBe(3);
  });

  it('2025-11-25 (official client, default settings): a repeated key returns the first result and charges once', async () => {
    const label = fresh('legacy');
    const key = fresh('key');
    const params = { name: 'charge', arguments: { label, amount: 7 }, idempotencyKey: key };
    const first = await legacy.client.callTool(params as never);
    const again = await legacy.client.callTool(params as never);
    expect(first.content).toEqual([{ type: 'text', text: `charged 7 for ${label}: effect #1` }]);
    expect(again.content).toEqual(first.content);
    expect(effects.get(label)).toBe(1);
  });

  it('a key reused with other arguments, or for another tool, is refused (idempotency_key_conflict) and runs nothing', async () => {
    const label = fresh('conflict');
    const key = fresh('key');
    await call(server.url, { name: 'charge', arguments: { label, amount: 1 }, idempotencyKey: key });
    // 1 and 1.0 are the same argument value: a repeat, not a conflict.
    const same = await post1(server.url, key, label);
    expect(same.json.result.content[0].text).toBe(`charged 1 for ${label}: effect #1`);

    for (const params of [
      { name: 'charge', arguments: { label, amount: 2 } },
      { name: 'slow_charge', arguments: { label, amount: 1 } },
    ]) {
      const refused = await call(server.url, { ...params, idempotencyKey: key });
      expect(refused.json.error).toMatchObject({
        code: -32602,
        data: { type: 'idempotency_key_conflict', idempotencyKey: key },
      });
    }
    expect(effects.get(label)).toBe(1);

    // The official client (another caller: no x-user) gets the same refusal for its own key.
    const its = fresh('key');
    await modern.callTool({ name: 'charge', arguments: { label, amount: 1 }, idempotencyKey: its } as never);
    await expect(
      modern.callTool({ name: 'charge', arguments: { label, amount: 3 }, idempotencyKey: its } as never),
    ).rejects.toMatchObject({ code: -32602, data: { type: 'idempotency_key_conflict', idempotencyKey: its } });
    expect(effects.get(label)).toBe(2);
  });

  it('a repeat while the first call still runs is refused at once (idempotency_key_in_progress, 409), then gets its result', async () => {
    const label = fresh('slow');
    const key = fresh('key');
    const params = { name: 'slow_charge', arguments: { label }, idempotencyKey: key };
    const first = call(server.url, params);
    await waitFor(() => gates.has(label));
    const early = await call(server.url, params);
    expect(early.status).toBe(409);
    expect(early.headers['retry-after']).toBe('1');
    expect(early.json.error).toMatchObject({
      code: -32602,
      data: { type: 'idempotency_key_in_progress', idempotencyKey: key },
    });
    gates.get(label)!();
    const answered = await first;
    const later = await call(server.url, params);
    expect(later.json.result.content).toEqual(answered.json.result.content);
    expect(effects.get(label)).toBe(1);
  });

  it('a protocol error is replayed as it was, not retried', async () => {
    const label = fresh('refuse');
    const params = { name: 'refuse', arguments: { label }, idempotencyKey: fresh('key') };
    const first = await call(server.url, params);
    const again = await call(server.url, params);
    expect(first.json.error).toMatchObject({ code: -32602, message: `refused ${label} (attempt #1)` });
    expect(again.json.error).toEqual(first.json.error);
    expect(again.status).toBe(first.status);
    expect(effects.get(label)).toBe(1);
  });

  it('keys are per caller: the same key from another caller is another call', async () => {
    const label = fresh('callers');
    const params = { name: 'charge', arguments: { label }, idempotencyKey: fresh('key') };
    await call(server.url, params, 'alice');
    await call(server.url, params, 'alice');
    const bob = await call(server.url, params, 'bob');
    expect(bob.json.result.content[0].text).toBe(`charged 0 for ${label}: effect #2`);
    expect(effects.get(label)).toBe(2);
  });

  it('a repeated key creates one task; another key another', async () => {
    const label = fresh('task');
    const key = fresh('key');
    const params = { name: 'charge_task', arguments: { label }, idempotencyKey: key };
    const first = (await call(server.url, params, 'alice', TASKS)).json.result;
    const again = (await call(server.url, params, 'alice', TASKS)).json.result;
    expect(first.resultType).toBe('task');
    expect(again.resultType).toBe('task');
    expect(again.taskId).toBe(first.taskId);
    const done = await pollUntil(server.url, first.taskId, (task) => task.status === 'completed');
    // The handler's key (McpTaskContext.operationId) is the task's id.
    expect(done.result.structuredContent).toEqual({ operationId: first.taskId, taskId: first.taskId, effect: 1 });
    expect(effects.get(label)).toBe(1);

    const other = (await call(server.url, { ...params, idempotencyKey: fresh('key') }, 'alice', TASKS)).json.result;
    expect(other.taskId).toEqual(expect.any(String));
    expect(other.taskId).not.toBe(first.taskId);
    await pollUntil(server.url, other.taskId, (task) => task.status === 'completed');
    expect(effects.get(label)).toBe(2);
  });

  it('a malformed idempotencyKey is invalid params', async () => {
    const refused = await call(server.url, { name: 'charge', arguments: { label: 'x' }, idempotencyKey: 42 });
    expect(refused.json.error).toMatchObject({
      code: -32602,
      message: 'params.idempotencyKey must be a non-empty string',
    });
  });

  it('McpTaskContext.operationId: the flow id outside a task', async () => {
    const plain = (await call(server.url, { name: 'operation_id', arguments: {} })).json.result.structuredContent;
    expect(typeof plain.operationId).toBe('string');
    expect(plain.operationId).toBe(plain.flowId);
  });
});

/** `charge` with `amount: 1.0` written as such on the wire. */
function post1(url: string, key: string, label: string): Promise<RawResponse> {
  return rpc(
    url,
    'tools/call',
    { name: 'charge', arguments: { label, amount: 1.0 }, idempotencyKey: key },
    { headers: { 'x-user': 'alice' } },
  );
}

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await delay(10);
  }
}
