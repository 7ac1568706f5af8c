import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import { Injectable, Module } from '@nestjs/common';
import { McpTool } from '../../src/index.js';
import { connectElicitingClient } from '../mrtr/mrtr-client.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { BookingUpstreamModule, upstreamRuns } from './support/eliciting-upstream.js';
import { configuredGatewayModule, gatewayModule, type UpstreamEra } from './support/gateway-app.js';

/** Answers the upstream's two questions as a user would. */
function answer(params: ElicitRequest['params']): ElicitResult {
  const message = (params as { message: string }).message;
  if (message === 'Your name?') return { action: 'accept', content: { name: 'Ann' } };
  if (message === 'When, Ann?') return { action: 'accept', content: { time: '19:30' } };
  return { action: 'decline' };
}

/** The official client with its default settings: the 2025 era, questions pushed to its handler. */
async function connectLegacyClient(url: string, asked: string[]): Promise<Client> {
  const client = new Client({ name: 'gateway-e2e', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push((request.params as { message: string }).message);
    return answer(request.params);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const text = (result: unknown): string =>
  ((result as { content: Array<{ text: string }> }).content ?? []).map((c) => c.text).join('');

describe('McpGatewayModule: an upstream mounted behind our server, its questions passed through', () => {
  let upstream: RunningApp;

  beforeAll(async () => {
    upstream = await startApp(BookingUpstreamModule, 'express');
  });
  afterAll(async () => {
    await upstream?.close();
  });

  describe.each(ADAPTERS)('gateway on %s', (adapter) => {
    describe.each<UpstreamEra>(['modern', 'legacy'])('upstream connection: %s era', (era) => {
      let gateway: RunningApp;

      beforeAll(async () => {
        gateway = await startApp(gatewayModule(upstream.url, era), adapter);
      });
      afterAll(async () => {
        await gateway?.close();
      });

      it('lists the upstream items under the prefix, with their schemas and annotations', async () => {
        const client = await connectElicitingClient(gateway.url);
        try {
          const { tools } = await client.client.listTools();
          const book = tools.find((tool) => tool.name === 'ref_book');
          expect(book).toMatchObject({
            description: 'Books a table, asking for a name and then a time',
            annotations: { openWorldHint: false },
          });
          expect(tools.find((tool) => tool.name === 'ref_sleep')?.inputSchema).toMatchObject({
            properties: { ms: expect.objectContaining({ type: 'integer' }) },
          });
          const { prompts } = await client.client.listPrompts();
          expect(prompts.map((p) => p.name)).toContain('ref_greeting');
          const prompt = await client.client.getPrompt({ name: 'ref_greeting' });
          expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Hello from upstream' });
          const read = await client.client.readResource({ uri: 'upstream://menu' });
          expect(read.contents[0]).toMatchObject({ uri: 'upstream://menu', text: 'soup, bread' });
        } finally {
          await client.close();
        }
      });

      it('2026-07-28 downstream (pinned official client) answers both questions; no upstream round runs twice', async () => {
        const client = await connectElicitingClient(gateway.url, { onElicit: answer });
        upstreamRuns.book = 0;
        try {
          const result = await client.client.callTool({ name: 'ref_book', arguments: {} });
          expect(text(result)).toBe('Booked for Ann at 19:30');
          expect(client.asked.map((p) => (p as { message: string }).message)).toEqual(['Your name?', 'When, Ann?']);
          // Three rounds downstream; upstream, its handler ran once per upstream round: 3, not 1+2+3.
          expect(client.calls()).toHaveLength(3);
          expect(upstreamRuns.book).toBe(3);
        } finally {
          await client.close();
        }
      });

      it('2025-era downstream (official client, default settings) answers both pushed questions', async () => {
        const asked: string[] = [];
        const client = await connectLegacyClient(gateway.url, asked);
        upstreamRuns.book = 0;
        try {
          const result = await client.callTool({ name: 'ref_book', arguments: {} });
          expect(text(result)).toBe('Booked for Ann at 19:30');
          expect(asked).toEqual(['Your name?', 'When, Ann?']);
          expect(upstreamRuns.book).toBe(3);
        } finally {
          await client.close();
        }
      });
    });
  });

  describe.each(ADAPTERS)('gateway on %s, configured by forRootAsync from ConfigService', (adapter) => {
    let gateway: RunningApp;

    beforeAll(async () => {
      gateway = await startApp(configuredGatewayModule(upstream.url, 'modern', 'cfg'), adapter);
    });
    afterAll(async () => {
      await gateway?.close();
    });

    it('mounts the upstream under the configured prefix, and a call goes through', async () => {
      const client = await connectElicitingClient(gateway.url);
      try {
        const { tools } = await client.client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['cfg_book', 'cfg_sleep']));
        expect(tools.some((tool) => tool.name.startsWith('ref_'))).toBe(false);
        const result = await client.client.callTool({ name: 'cfg_sleep', arguments: { ms: 5 } });
        expect(text(result)).toBe('slept 5 ms');
      } finally {
        await client.close();
      }
    });
  });
});

describe('McpGatewayModule: an upstream item the server cannot take', () => {
  it('is left out with a warning; the other items are mounted', async () => {
    @Injectable()
    class LocalTools {
      @McpTool({ name: 'ref_sleep', description: 'A local tool that has the name first' })
      sleep(): string {
        return 'local';
      }
    }
    @Module({ providers: [LocalTools] })
    class LocalModule {}
    const upstream = await startApp(BookingUpstreamModule, 'express');
    const warnings: string[] = [];
    const logger = {
      log: () => undefined,
      error: () => undefined,
      warn: (message: string) => void warnings.push(message),
    };
    const gateway = await startApp(
      { module: class App {}, imports: [gatewayModule(upstream.url, 'modern'), LocalModule] },
      'express',
      {
        logger,
      },
    );
    const client = await connectElicitingClient(gateway.url);
    try {
      expect(text(await client.client.callTool({ name: 'ref_sleep', arguments: {} }))).toBe('local');
      expect((await client.client.listTools()).tools.map((tool) => tool.name)).toContain('ref_book');
      expect(warnings.join('\n')).toMatch(/Upstream "ref": tool ref_sleep is not mounted/);
    } finally {
      await client.close();
      await gateway.close();
      await upstream.close();
    }
  });
});
