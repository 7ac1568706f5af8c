import type { ElicitResult } from '@modelcontextprotocol/client';
import { AppModule } from '../../sample/app.module.js';
import { BookingService } from '../../sample/booking/booking.service.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { connectLegacyClient } from './legacy-client.js';

describe.each(ADAPTERS)('the sample, with the official client on its default (2025-era) settings, on %s', (adapter) => {
  let server: RunningApp;
  beforeAll(async () => {
    server = await startApp(AppModule, adapter);
  });
  afterAll(() => server.close());

  it('initializes, lists the tools and books a table through two pushed elicitation/create requests', async () => {
    const c = await connectLegacyClient(server.url, {
      onElicit: (params): ElicitResult =>
        String(params.message).startsWith('Which time')
          ? { action: 'accept', content: { time: '19:30' } }
          : { action: 'accept', content: { confirm: true } },
    });
    try {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'bistro', version: '1.0.0' });
      expect(c.transport.sessionId).toEqual(expect.any(String));
      const tools = await c.client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['find_tables', 'book_table']));

      const before = server.app.get(BookingService).all().length;
      const result = await c.client.callTool({
        name: 'book_table',
        arguments: { date: '2026-12-24', partySize: 4, name: 'Ada', email: 'ada@example.com' },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ date: '2026-12-24', time: '19:30', partySize: 4 });
      expect(c.asked.map((p) => p.message)).toEqual([
        'Which time would you like on 2026-12-24?',
        'Book a table for 4 at 19:30 on 2026-12-24 under Ada?',
      ]);
      expect(server.app.get(BookingService).all()).toHaveLength(before + 1);
    } finally {
      await c.close();
    }
  });
});
