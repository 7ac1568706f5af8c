import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { gatewayModule, type UpstreamEra } from './support/gateway-app.js';
import { startSdkElicitingServer, type SdkElicitingServer } from './support/sdk-eliciting-server.js';

function answer(params: ElicitRequest['params']): ElicitResult {
  const message = (params as { message: string }).message;
  if (message === 'Your name?') return { action: 'accept', content: { name: 'Cy' } };
  if (message === 'When, Cy?') return { action: 'accept', content: { time: '18:00' } };
  return { action: 'decline' };
}

const text = (result: unknown): string =>
  (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');

/**
 * The gateway in front of a server built on the official TS server SDK, spoken to in each era, with
 * a tool that asks two questions: the official client through the gateway, with its default
 * settings (2025 era) and pinned to 2026-07-28, answers both.
 */
describe('McpGatewayModule in front of an official-SDK server', () => {
  let upstream: SdkElicitingServer;

  beforeAll(async () => {
    upstream = await startSdkElicitingServer();
  });
  afterAll(async () => {
    await upstream?.close();
  });

  describe.each<UpstreamEra>(['modern', 'legacy'])('upstream connection: %s era', (era) => {
    let gateway: RunningApp;

    beforeAll(async () => {
      gateway = await startApp(gatewayModule(upstream.url, era), 'fastify');
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('2026-07-28 downstream: both questions answered, the tool completes', async () => {
      const client = await connectElicitingClient(gateway.url, { onElicit: answer });
      const before = upstream.runs();
      try {
        expect(text(await client.client.callTool({ name: 'ref_book', arguments: {} }))).toBe('Booked for Cy at 18:00');
        expect(client.asked.map((p) => (p as { message: string }).message)).toEqual(['Your name?', 'When, Cy?']);
        // Upstream: three rounds of a 2026-07-28 flow, or one waiting call of a 2025-era session.
        expect(upstream.runs() - before).toBe(era === 'modern' ? 3 : 1);
      } finally {
        await client.close();
      }
    });

    it('2025-era downstream (official client, default settings): both pushed questions answered', async () => {
      const asked: string[] = [];
      const client = new Client(
        { name: 'gateway-sdk-e2e', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push((request.params as { message: string }).message);
        return answer(request.params);
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
      try {
        expect(text(await client.callTool({ name: 'ref_book', arguments: {} }))).toBe('Booked for Cy at 18:00');
        expect(asked).toEqual(['Your name?', 'When, Cy?']);
      } finally {
        await client.close();
      }
    });
  });
});
