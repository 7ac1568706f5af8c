import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { BookingUpstreamModule } from './support/eliciting-upstream.js';

function answer(params: ElicitRequest['params']): ElicitResult {
  const message = (params as { message: string }).message;
  return message === 'Your name?'
    ? { action: 'accept', content: { name: 'Dee' } }
    : { action: 'accept', content: { time: '21:00' } };
}

const text = (result: unknown): string =>
  (result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('');

/** The sample with MCP_GATEWAY_UPSTREAMS: the guests' /mcp also serves the upstream's items, prefixed. */
describe('the sample with MCP_GATEWAY_UPSTREAMS', () => {
  let upstream: RunningApp;
  let sample: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
    process.env['MCP_GATEWAY_UPSTREAMS'] = `ref=${upstream.url}`;
    // Read when the sample's module is defined: imported only now.
    const { AppModule } = await import('../../sample/app.module.js');
    sample = await startApp(AppModule, 'fastify');
  });
  afterAll(async () => {
    delete process.env['MCP_GATEWAY_UPSTREAMS'];
    await sample?.close();
    await upstream?.close();
  });

  it('serves its own tools and the upstream ones, and the upstream tool asks the guest both questions', async () => {
    const client = await connectElicitingClient(sample.url, { onElicit: answer });
    try {
      const names = (await client.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['book_table', 'find_tables', 'ref_book', 'ref_sleep']));
      expect(text(await client.client.callTool({ name: 'ref_book', arguments: {} }))).toBe('Booked for Dee at 21:00');
      expect(client.asked).toHaveLength(2);
      const staff = await connectElicitingClient(`${sample.origin}/mcp/staff`);
      try {
        const staffTools = (await staff.client.listTools()).tools.map((tool) => tool.name);
        expect(staffTools.length).toBeGreaterThan(0);
        expect(staffTools.filter((name) => name.startsWith('ref_'))).toEqual([]);
      } finally {
        await staff.close();
      }
    } finally {
      await client.close();
    }
  });
});
