import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { AppModule } from '../../sample/app.module.js';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { gatewayModule, type UpstreamEra } from './support/gateway-app.js';

const booking = { date: '2026-12-24', partySize: 2, name: 'Ada', email: 'ada@example.com' };

/** The sample's book_table asks for a seating, then for a confirmation. */
function answer(params: ElicitRequest['params']): ElicitResult {
  const message = String((params as { message: string }).message);
  return { action: 'accept', content: message.startsWith('Which') ? { time: '19:00' } : { confirm: true } };
}

const reference = (result: unknown): unknown =>
  (result as { structuredContent?: { reference?: unknown } }).structuredContent?.reference;

/** The gateway in front of our own sample: its two-question book_table completes through it. */
describe('McpGatewayModule in front of the sample', () => {
  let sample: RunningApp;

  beforeAll(async () => {
    sample = await startApp(AppModule, 'express');
  });
  afterAll(async () => {
    await sample?.close();
  });

  describe.each<UpstreamEra>(['modern', 'legacy'])('upstream connection: %s era', (era) => {
    let gateway: RunningApp;

    beforeAll(async () => {
      gateway = await startApp(gatewayModule(sample.url, era), 'express');
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('2026-07-28 downstream books a table, answering both questions', async () => {
      const client = await connectElicitingClient(gateway.url, { onElicit: answer });
      try {
        const result = await client.client.callTool({ name: 'ref_book_table', arguments: booking });
        expect(reference(result)).toEqual(expect.any(String));
        expect(client.asked).toHaveLength(2);
      } finally {
        await client.close();
      }
    });

    it('2025-era downstream (official client, default settings) books a table, answering both pushed questions', async () => {
      const asked: string[] = [];
      const client = new Client(
        { name: 'gateway-sample-e2e', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(String((request.params as { message: string }).message));
        return answer(request.params);
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
      try {
        const result = await client.callTool({ name: 'ref_book_table', arguments: booking });
        expect(reference(result)).toEqual(expect.any(String));
        expect(asked).toHaveLength(2);
      } finally {
        await client.close();
      }
    });
  });
});
