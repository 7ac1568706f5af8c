/**
 * `npm run demo`: starts the sample server, drives it with the official MCP client (protocol
 * 2026-07-28), answers its questions from a script, and prints every round trip. It exits
 * non-zero if anything in the flow goes wrong.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

const bold = (s: string) => `\x1b[1m${s}\x1b[0m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[0m`;
const line = (s = '') => console.log(s);

/** The answers a guest would give, keyed by the field each question asks for. */
const script: Record<string, Record<string, unknown>> = {
  time: { time: '19:30' },
  confirm: { confirm: true },
};

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, new FastifyAdapter(), { logger: ['error'] });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${port}/mcp`;
  let round = 0;

  // Watch the wire: every input_required answer is one round of the stateless elicitation flow.
  const watchingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((response.headers.get('content-type') ?? '').startsWith('application/json')) {
      const body = (await response.clone().json()) as { result?: Record<string, unknown> };
      const result = body.result;
      if (result?.['resultType'] === 'input_required') {
        round++;
        const state = String(result['requestState'] ?? '');
        line(
          bold(`  round ${round}: the server needs input`) +
            dim(` (requestState: ${state.length} bytes, sealed with AES-256-GCM)`),
        );
        for (const [key, request] of Object.entries(
          result['inputRequests'] as Record<string, { method: string; params: { message: string } }>,
        )) {
          line(`    ${key} → ${request.method}: "${request.params.message}"`);
        }
      }
    }
    return response;
  };

  const client = new Client(
    { name: 'bistro-demo', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { requestedSchema?: { properties?: Record<string, unknown> } };
    const field = Object.keys(params.requestedSchema?.properties ?? {})[0] ?? '';
    const content = script[field];
    if (!content) throw new Error(`The demo script has no answer for "${field}"`);
    line(`    the guest answers: ${JSON.stringify(content)}`);
    return { action: 'accept', content } as never;
  });

  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: watchingFetch }));
    const info = client.getServerVersion();
    line(bold(`Connected to ${info?.name} ${info?.version} at ${url} (protocol 2026-07-28)`));

    const { tools } = await client.listTools();
    line(`\n${bold('Tools:')} ${tools.map((t) => t.name).join(', ')}`);

    const args = { date: '2026-12-24', partySize: 4 };
    line(`\n${bold('→ find_tables')} ${JSON.stringify(args)}`);
    const free = await client.callTool({ name: 'find_tables', arguments: args });
    line(`  ${JSON.stringify(free.structuredContent)}`);

    const booking = { ...args, name: 'Ada Lovelace', email: 'ada@example.com' };
    line(`\n${bold('→ book_table')} ${JSON.stringify(booking)}`);
    const booked = await client.callTool({ name: 'book_table', arguments: booking });
    if (booked.isError) throw new Error(`book_table failed: ${JSON.stringify(booked.content)}`);
    const reference = (booked.structuredContent as { reference?: string } | undefined)?.reference;
    if (!reference || round !== 2)
      throw new Error(`Expected a booking after 2 rounds, got ${JSON.stringify(booked)} after ${round}`);
    line(bold(`  result after ${round} rounds: booked, reference ${reference}`));
    line(`  ${JSON.stringify(booked.structuredContent)}`);
    line(
      dim(
        '\nEach round re-ran book_table from the top; the answers travelled in the requestState, the server kept nothing.',
      ),
    );
  } finally {
    await client.close().catch(() => undefined);
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(`\nDemo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
