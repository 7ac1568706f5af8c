import { type McpExchange, McpPrincipalSource } from '../src/index.js';
import { type McpAnswerer, McpTestClient, McpTestError } from '../src/testing/index.js';
import { AppModule } from '../sample/app.module.js';
import { BookingService } from '../sample/booking/booking.service.js';
import { RecordingLogger } from './hostile/clean-logs.fixtures.js';
import { rpc as rawRpc } from './support/raw-mcp.js';

/** The guest a request names in `x-guest`: a principal source as an application might write one. */
class GuestHeaderPrincipal extends McpPrincipalSource {
  resolve(request: Pick<McpExchange, 'transport'>): string | null {
    const guest = request.transport.kind === 'http' ? request.transport.request.headers['x-guest'] : undefined;
    return typeof guest === 'string' ? guest : null;
  }
}

/**
 * `resources/read` of `uri` as another client would send it: from `localAddress` (another loopback
 * address is another client address) and with `headers`. Resolves to the JSON-RPC answer.
 */
function readAs(
  url: string,
  uri: string,
  from: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ result?: any; error?: any }> {
  return rawRpc(url, 'resources/read', { uri }, { id: 1, headers: from.headers, localAddress: from.localAddress }).then(
    (response) => response.json,
  );
}

describe.each(['express', 'fastify'] as const)(
  'the sample server, through @mocapi/nestjs/testing, on %s',
  (adapter) => {
    let mcp: McpTestClient;

    beforeEach(async () => {
      mcp = await McpTestClient.start(AppModule, { adapter });
    });
    afterEach(() => mcp.close());

    const booking = { date: '2026-12-24', partySize: 4, name: 'Ada', email: 'ada@example.com' };

    /** Books Ada's table at 19:00 through book_table, answering both questions. */
    const bookAt19 = async (client: McpTestClient) => {
      const accept: McpAnswerer = (request) => {
        const asksTime = String((request.params as { message: string }).message).startsWith('Which');
        const content: Record<string, string | boolean> = asksTime ? { time: '19:00' } : { confirm: true };
        return { action: 'accept', content };
      };
      const { result } = await client.callToolAnswering('book_table', booking, accept);
      return result['structuredContent'] as { reference: string };
    };

    it('lists its tools with generated schemas', async () => {
      const tools = await mcp.listTools();
      const book = tools.find((t) => t['name'] === 'book_table')!;
      expect(book['inputSchema']).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['date', 'partySize', 'name', 'email']),
      });
    });

    it('books a table after choosing a time and confirming, and only then', async () => {
      const bookings = mcp.app.get(BookingService);
      const first = await mcp.callTool('book_table', booking);
      expect(first.isComplete).toBe(false);
      const [key, question] = Object.entries(first.inputRequests)[0]!;
      expect(question).toMatchObject({
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Which time would you like on 2026-12-24?' },
      });

      const second = await first.respond({ [key]: { action: 'accept', content: { time: '19:30' } } });
      expect(second.isComplete).toBe(false);
      expect(Object.values(second.inputRequests)[0]).toMatchObject({
        params: { message: 'Book a table for 4 at 19:30 on 2026-12-24 under Ada?' },
      });
      expect(bookings.all()).toHaveLength(0);

      const done = await second.respond({
        [Object.keys(second.inputRequests)[0]!]: { action: 'accept', content: { confirm: true } },
      });
      expect(done.isComplete).toBe(true);
      expect(done.result['structuredContent']).toMatchObject({ date: '2026-12-24', time: '19:30', partySize: 4 });
      expect(bookings.all()).toHaveLength(1);
    });

    it('books exactly one table when the final round is replayed 50 times at once', async () => {
      const bookings = mcp.app.get(BookingService);
      const first = await mcp.callTool('book_table', booking);
      const second = await first.respond({ 'elicit-1': { action: 'accept', content: { time: '20:00' } } });
      const replays = await Promise.all(
        Array.from({ length: 50 }, () =>
          second.respond({ 'elicit-2': { action: 'accept', content: { confirm: true } } }),
        ),
      );
      expect(bookings.all()).toHaveLength(1);
      const references = new Set(
        replays.map((r) => (r.result['structuredContent'] as { reference: string }).reference),
      );
      expect([...references]).toEqual([bookings.all()[0]!.reference]);
    });

    it('asks the time again when another guest took the chosen seating between two rounds', async () => {
      const bookings = mcp.app.get(BookingService);
      const first = await mcp.callTool('book_table', booking);
      const second = await first.respond({ 'elicit-1': { action: 'accept', content: { time: '21:00' } } });
      // Four other guests take every table at 21:00 before this guest confirms.
      for (let i = 0; i < 4; i++) bookings.book({ ...booking, name: `Guest ${i}`, time: '21:00' }, 'other guests');
      const third = await second.respond({ 'elicit-2': { action: 'accept', content: { confirm: true } } });
      expect(third.isComplete).toBe(false);
      const question = Object.values(third.inputRequests)[0]!;
      expect(question.params).toMatchObject({ message: 'Which time would you like on 2026-12-24?' });
      expect(JSON.stringify(question.params)).not.toContain('21:00');
      const fourth = await third.respond({ 'elicit-1': { action: 'accept', content: { time: '20:30' } } });
      const done = await fourth.respond({ 'elicit-2': { action: 'accept', content: { confirm: true } } });
      expect(done.result['structuredContent']).toMatchObject({ time: '20:30' });
      expect(bookings.all().filter((b) => b.name === 'Ada')).toHaveLength(1);
    });

    it('makes no booking when the guest declines', async () => {
      const { result, rounds } = await mcp.callToolAnswering('book_table', booking, (request) =>
        String((request.params as { message: string }).message).startsWith('Which')
          ? { action: 'accept', content: { time: '18:00' } }
          : { action: 'decline' },
      );
      expect(rounds).toHaveLength(3);
      expect(result.content).toEqual([{ type: 'text', text: 'No booking made.' }]);
      expect(mcp.app.get(BookingService).all()).toHaveLength(0);
    });

    it('ships a rate limit: the 121st call to a tool within a minute gets -32050 with HTTP 429', async () => {
      const args = { date: '2026-12-24', partySize: 2 };
      for (let i = 0; i < 120; i++) await mcp.callTool('find_tables', args);
      await expect(mcp.callTool('find_tables', args)).rejects.toEqual(
        expect.objectContaining({ code: -32050, status: 429, data: { retryAfterMs: expect.any(Number) } }),
      );
    });

    it('answers a full seating with a tool error the model can act on, and logs nothing at ERROR', async () => {
      // book_seating is the seating picker's: only a client that renders apps may call it.
      const apps = await McpTestClient.start(AppModule, { adapter, apps: true });
      const logger = new RecordingLogger();
      apps.app.useLogger(logger);
      try {
        const bookings = apps.app.get(BookingService);
        for (let i = 0; i < 4; i++) bookings.book({ ...booking, name: `Guest ${i}`, time: '21:00' }, 'other guests');
        const round = await apps.callTool('book_seating', { ...booking, time: '21:00' });
        expect(round.result['isError']).toBe(true);
        expect(round.result['content']).toEqual([
          {
            type: 'text',
            text:
              'No table left at 21:00 on 2026-12-24: another guest took the last one. Nothing was booked. ' +
              'Call find_tables for the seatings still free for 4, and book one of those.',
          },
        ]);
        expect(bookings.all().filter((b) => b.name === 'Ada')).toHaveLength(0);
        expect(logger.errors).toEqual([]);
        // A free seating still books.
        const booked = await apps.callTool('book_seating', { ...booking, time: '20:00' });
        expect(booked.result['isError']).toBeUndefined();
        expect(logger.errors).toEqual([]);
      } finally {
        await apps.close();
      }
    });

    it('serves a booking to the client that booked it, and to no other', async () => {
      const { reference } = await bookAt19(mcp);
      const uri = `bistro://bookings/${reference}`;
      const own = await mcp.readResource(uri);
      expect(JSON.parse((own.result['contents'] as Array<{ text: string }>)[0]!.text)).toMatchObject({
        reference,
        name: 'Ada',
        email: 'ada@example.com',
      });
      // Another client (another address): the answer of an unknown reference, no guest's data.
      const other = await readAs(mcp.url, uri, { localAddress: '127.0.0.2' });
      expect(other.result).toBeUndefined();
      expect(other.error).toMatchObject({ code: -32602, data: { uri } });
      expect(JSON.stringify(other)).not.toContain('ada@example.com');
      expect(await readAs(mcp.url, 'bistro://bookings/NOSUCHREF', { localAddress: '127.0.0.2' })).toMatchObject({
        error: { code: -32602, data: { uri: 'bistro://bookings/NOSUCHREF' } },
      });
      // The same client from its own address reads it again.
      expect((await readAs(mcp.url, uri)).result.contents[0].text).toContain('ada@example.com');
    });

    it('with authenticated guests, serves a booking to its principal wherever it calls from, and to no other', async () => {
      const ada = await McpTestClient.start(AppModule, {
        adapter,
        headers: { 'x-guest': 'ada' },
        configure: (builder) => builder.overrideProvider(McpPrincipalSource).useValue(new GuestHeaderPrincipal()),
      });
      try {
        const uri = `bistro://bookings/${(await bookAt19(ada)).reference}`;
        // Another guest at the same address is refused; Ada from another address is served.
        const bob = await readAs(ada.url, uri, { headers: { 'x-guest': 'bob' } });
        expect(bob.error).toMatchObject({ code: -32602, data: { uri } });
        expect(JSON.stringify(bob)).not.toContain('ada@example.com');
        const anonymous = await readAs(ada.url, uri);
        expect(anonymous.error).toMatchObject({ code: -32602, data: { uri } });
        const elsewhere = await readAs(ada.url, uri, { localAddress: '127.0.0.2', headers: { 'x-guest': 'ada' } });
        expect(elsewhere.result.contents[0].text).toContain('ada@example.com');
      } finally {
        await ada.close();
      }
    });

    it('reports protocol errors as McpTestError', async () => {
      await expect(mcp.callTool('no_such_tool')).rejects.toEqual(expect.objectContaining({ code: -32602 }));
      await expect(mcp.request('ping')).rejects.toBeInstanceOf(McpTestError);
    });
  },
);

describe('the sample server, staff tools and content', () => {
  // The staff tools are the second server's, at /mcp/staff; the menu and the prompt the guests'.
  let mcp: McpTestClient;
  let guests: McpTestClient;
  beforeAll(async () => {
    mcp = await McpTestClient.start(AppModule, { path: '/mcp/staff' });
    guests = await McpTestClient.start(AppModule);
  });
  afterAll(async () => {
    await mcp.close();
    await guests.close();
  });

  it('serves the guests and the staff from two servers, each with its own tools', async () => {
    const guestTools = (await guests.listTools()).map((t) => t['name']);
    const staffTools = (await mcp.listTools()).map((t) => t['name']);
    expect(guestTools).toEqual(expect.arrayContaining(['find_tables', 'book_table']));
    expect(guestTools).not.toContain('list_bookings');
    expect(staffTools.sort()).toEqual([
      'cancel_booking',
      'list_bookings',
      'monthly_report',
      'prepare_service',
      'whoami',
    ]);
  });

  it('cancel_booking asks the member of staff to confirm first', async () => {
    const confirm = { action: 'accept' as const, content: { confirm: true } };
    const asked = await mcp.callToolAnswering('cancel_booking', { reference: 'ABCDEF12' }, () => confirm);
    expect(asked.rounds).toHaveLength(2);
    expect(asked.result['content']).toEqual([{ type: 'text', text: 'There is no booking ABCDEF12.' }]);
    const declined = await mcp.callToolAnswering('cancel_booking', { reference: 'ABCDEF12' }, () => ({
      action: 'decline' as const,
    }));
    expect(declined.result['content']).toEqual([{ type: 'text', text: 'Nothing was cancelled.' }]);
  });

  it('whoami says the caller is anonymous while the staff server has no sign-in (no MCP_AUTH_UPSTREAM_ISSUER)', async () => {
    const round = await mcp.callTool('whoami');
    expect(round.result['content']).toEqual([{ type: 'text', text: 'Not signed in (anonymous)' }]);
  });

  it('guards list_bookings with an ordinary Nest guard', async () => {
    const round = await mcp.callTool('list_bookings');
    expect(round.result['isError']).toBe(true);
    const staff = await fetch(mcp.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'list_bookings',
        'x-staff-token': 'staff',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'list_bookings',
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(((await staff.json()) as any).result.structuredContent).toEqual({ bookings: [] });
  });

  it('serves the menu, a prompt, and reports progress', async () => {
    const menu = await guests.readResource('bistro://menu');
    expect((menu.result['contents'] as any[])[0]).toMatchObject({ mimeType: 'text/markdown' });
    const prompt = await guests.getPrompt('plan_evening', { occasion: 'birthday' });
    expect(JSON.stringify(prompt.result['messages'])).toContain('birthday dinner');
    const prepared = await mcp.callTool('prepare_service');
    expect(prepared.result['content']).toEqual([{ type: 'text', text: 'The dining room is ready.' }]);
  });

  it('runs monthly_report as a task for a client that declares the tasks extension', async () => {
    let id = 1;
    const rpc = async (method: string, params: Record<string, unknown>, name: string) => {
      const capabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
      const response = await rawRpc(mcp.url, method, params, { id: id++, capabilities, headers: { 'mcp-name': name } });
      return response.json.result;
    };
    const created = await rpc('tools/call', { name: 'monthly_report' }, 'monthly_report');
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const messages = new Set<string>();
    let task: any;
    for (let polls = 0; polls < 100; polls++) {
      task = await rpc('tasks/get', { taskId: created.taskId }, created.taskId);
      if (task.statusMessage) messages.add(task.statusMessage);
      if (task.status !== 'working') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(task.status).toBe('completed');
    expect(task.result.content[0].text).toMatch(/^Monthly report: \d+ bookings, 4 sections compiled\.$/);
    expect([...messages].some((m) => m.startsWith('Compiling: '))).toBe(true);
  });
});
