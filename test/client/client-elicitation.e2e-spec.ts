import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/client';
import { ordersAppModule } from '../oauth2/support/orders-app.fixture.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { startForecastApp } from './support/forecast.fixture.js';

/**
 * What a gateway needs from the handle when an upstream tool asks a question: the 2026-07-28
 * `input_required` result handed back (the official client's manual mode), and a 2025-era
 * upstream's pushed `elicitation/create` reaching a handler registered in `configureClient`.
 */
describe('McpClientModule: an upstream tool that asks the user a question', () => {
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(ordersAppModule({}), 'express');
  });
  afterAll(async () => {
    await upstream?.close();
  });

  it('2026-07-28: the input_required result comes back, and the retry with the answer and requestState completes', async () => {
    const { app, forecast } = await startForecastApp({
      url: upstream.url,
      clientOptions: {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    });
    try {
      const client = await forecast.upstream.client();
      const asked = (await client.callTool(
        { name: 'confirm', arguments: {} },
        { allowInputRequired: true },
      )) as unknown as InputRequiredResult;
      expect(asked.resultType).toBe('input_required');
      const [[key, question]] = Object.entries(asked.inputRequests ?? {}) as Array<[string, { method: string }]>;
      expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Confirm?' } });
      expect(asked.requestState).toEqual(expect.any(String));
      const done = (await client.callTool({
        name: 'confirm',
        arguments: {},
        inputResponses: { [key!]: { action: 'accept', content: { ok: true } } },
        requestState: asked.requestState,
      } as never)) as CallToolResult;
      expect(done.content).toEqual([{ type: 'text', text: 'confirmed' }]);
    } finally {
      await app.close();
    }
  });

  it('2025 era: the pushed elicitation/create reaches the handler registered in configureClient', async () => {
    const questions: string[] = [];
    const { app, forecast } = await startForecastApp({
      url: upstream.url,
      clientOptions: { capabilities: { elicitation: { form: {} } } },
      configureClient: (client) =>
        client.setRequestHandler('elicitation/create', async (request) => {
          questions.push((request.params as { message: string }).message);
          return { action: 'accept', content: { ok: true } };
        }),
    });
    try {
      expect(await forecast.callText('confirm')).toBe('confirmed');
      expect(questions).toEqual(['Confirm?']);
      expect((await forecast.upstream.client()).getProtocolEra()).toBe('legacy');
    } finally {
      await app.close();
    }
  });
});
