import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { gatewayModule } from './support/gateway-app.js';

function answer(params: ElicitRequest['params']): ElicitResult {
  const message = (params as { message: string }).message;
  return message === 'Your name?'
    ? { action: 'accept', content: { name: 'Bo' } }
    : { action: 'accept', content: { time: '20:00' } };
}

const text = (result: unknown): string =>
  (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');

/**
 * Two gateway nodes with the same secrets and no shared store: a 2026-07-28 flow begun on one is
 * finished on the other when the upstream speaks 2026-07-28 (its requestState rides in ours); a
 * 2025-era upstream's waiting call lives on one node, and a round reaching the other is a clear
 * tool error.
 */
describe('McpGatewayModule across nodes (same secrets, no shared store)', () => {
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it('2026-07-28 upstream: every retry goes to the other node, and the flow completes', async () => {
    const a = await startApp(gatewayModule(upstream.url, 'modern'), 'express');
    const b = await startApp(gatewayModule(upstream.url, 'modern'), 'fastify');
    const client = await connectElicitingClient(a.url, {
      onElicit: answer,
      route: (request, url) => (request?.params?.requestState ? b.url : url),
    });
    try {
      const result = await client.client.callTool({ name: 'ref_book', arguments: {} });
      expect(text(result)).toBe('Booked for Bo at 20:00');
      expect(client.calls().map((call) => call.url)).toEqual([a.url, b.url, b.url]);
    } finally {
      await client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('2025-era upstream: an answer later than answerTimeoutMs finds the call ended, a tool error', async () => {
    const gateway = await startApp(gatewayModule(upstream.url, 'legacy', { answerTimeoutMs: 200 }), 'express');
    const client = await connectElicitingClient(gateway.url, {
      onElicit: async (params) => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return answer(params);
      },
    });
    try {
      const result = (await client.client.callTool({ name: 'ref_book', arguments: {} })) as { isError?: boolean };
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/no longer waiting/);
    } finally {
      await client.close();
      await gateway.close();
    }
  });

  it('2025-era upstream: the next round on the other node is a tool error saying to call again', async () => {
    const a = await startApp(gatewayModule(upstream.url, 'legacy'), 'express');
    const b = await startApp(gatewayModule(upstream.url, 'legacy'), 'express');
    const client = await connectElicitingClient(a.url, {
      onElicit: answer,
      route: (request, url) => (request?.params?.requestState ? b.url : url),
    });
    try {
      const result = (await client.client.callTool({ name: 'ref_book', arguments: {} })) as { isError?: boolean };
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/no longer waiting .*another node.*call it again/);
      // The same flow on the node that holds the waiting call completes.
      const again = await connectElicitingClient(a.url, { onElicit: answer });
      try {
        expect(text(await again.client.callTool({ name: 'ref_book', arguments: {} }))).toBe('Booked for Bo at 20:00');
      } finally {
        await again.close();
      }
    } finally {
      await client.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
