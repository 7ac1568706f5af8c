import { envelope, mcpHeaders, send } from '../support/raw-mcp.js';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { startRecordingProxy, type RecordingProxy } from '../client/support/http-proxy.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';
import { gatewayModule, type UpstreamEra } from './support/gateway-app.js';

const text = (result: unknown): string =>
  (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');

function callTool(url: string, name: string, args: Record<string, unknown> = {}) {
  return send(
    url,
    'POST',
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: envelope() } },
    mcpHeaders('tools/call', name),
  );
}

/** An upstream that is down, slow, too large or too busy: documented errors, never a 500 or a stack. */
describe.each(ADAPTERS)('McpGatewayModule failures (gateway on %s)', (adapter) => {
  describe.each<UpstreamEra>(['modern', 'legacy'])('upstream connection: %s era', (era) => {
    let upstream: RunningApp;
    let gateway: RunningApp;

    beforeAll(async () => {
      upstream = await startApp(BookingUpstreamModule, 'express');
      gateway = await startApp(
        gatewayModule(upstream.url, era, { maxResultChars: 2000, maxConcurrentCalls: 1, timeoutMs: 500 }),
        adapter,
      );
    });
    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    it('slow: a call the upstream does not answer within timeoutMs is a tool error', async () => {
      const client = await connectElicitingClient(gateway.url);
      try {
        const result = (await client.client.callTool({ name: 'ref_sleep', arguments: { ms: 2000 } })) as {
          isError?: boolean;
        };
        expect(result.isError).toBe(true);
        expect(text(result)).toBe('Upstream "ref": tools/call: no answer in time');
      } finally {
        await client.close();
      }
    });

    it('oversized: an answer larger than maxResultChars is a tool error', async () => {
      const client = await connectElicitingClient(gateway.url);
      try {
        const result = (await client.client.callTool({ name: 'ref_big', arguments: {} })) as { isError?: boolean };
        expect(result.isError).toBe(true);
        expect(text(result)).toMatch(/^Upstream "ref": tools\/call: the answer \(\d+ characters\) exceeds 2000$/);
      } finally {
        await client.close();
      }
    });

    it('busy: a call beyond maxConcurrentCalls gets the transient error (-32051, 503, Retry-After)', async () => {
      const slow = callTool(gateway.url, 'ref_sleep', { ms: 300 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await callTool(gateway.url, 'ref_sleep', { ms: 0 });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json.error).toMatchObject({ code: -32051, data: { upstream: 'ref', retryAfterMs: 1000 } });
      expect((await slow).status).toBe(200);
    });

    it('down: a call to an upstream that stopped gets the transient error, no stack', async () => {
      await upstream.close();
      const refused = await callTool(gateway.url, 'ref_sleep', { ms: 0 });
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json.error.code).toBe(-32051);
      expect(refused.json.error.message).toMatch(/the upstream "ref" cannot be reached/);
      expect(refused.text).not.toMatch(/\bat .*\.(js|ts):\d+/);
    });
  });
});

const FLOOD_BYTES = 50 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Through a proxy in front of the real upstream: an upstream that streams one answer far over the
 * bound (50 MB of SSE for one result) is cut off while it arrives, not read whole and then refused;
 * one that answers garbage (a result whose `content` is a string) meets the client's check of the
 * result — a tool error naming the upstream, never the garbage passed on, a 500 or a stack.
 */
describe('McpGatewayModule: an upstream answer cut off while it arrives, or not a valid result', () => {
  let upstream: RunningApp;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
    proxy = await startRecordingProxy(upstream.url);
    proxy.flood('big', FLOOD_BYTES);
    proxy.garble('sleep', { resultType: 'complete', content: 'not a list of content blocks' });
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  describe.each(ADAPTERS)('gateway on %s', (adapter) => {
    describe.each<UpstreamEra>(['modern', 'legacy'])('upstream connection: %s era', (era) => {
      let gateway: RunningApp;

      beforeAll(async () => {
        gateway = await startApp(gatewayModule(proxy.url, era, {}, { maxResponseBytes: MAX_RESPONSE_BYTES }), adapter);
      });
      afterAll(async () => {
        await gateway?.close();
      });

      it("is the oversized tool error, and the upstream's socket closes before it has written the answer", async () => {
        const client = await connectElicitingClient(gateway.url);
        const before = proxy.floods.length;
        try {
          const result = (await client.client.callTool({ name: 'ref_big', arguments: {} })) as { isError?: boolean };
          expect(result.isError).toBe(true);
          expect(text(result)).toBe(`Upstream "ref": tools/call: the answer exceeds the client's maxResponseBytes`);
          const flood = proxy.floods[before]!;
          await flood.closed;
          expect(flood.finished).toBe(false);
          // The bound, plus what the sockets' buffers took meanwhile: far from the whole answer.
          expect(flood.written).toBeLessThan(FLOOD_BYTES / 4);
        } finally {
          await client.close();
        }
      });

      it('is a tool error that names the upstream when the answer is not a valid result; the garbage is not passed on', async () => {
        const client = await connectElicitingClient(gateway.url);
        try {
          const result = (await client.client.callTool({ name: 'ref_sleep', arguments: { ms: 0 } })) as {
            isError?: boolean;
          };
          expect(result.isError).toBe(true);
          expect(text(result)).toBe('Upstream "ref": tools/call: the answer is not a valid MCP response');
          expect(JSON.stringify(result)).not.toContain('not a list of content blocks');
        } finally {
          await client.close();
        }
      });
    });
  });
});
