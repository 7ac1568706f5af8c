import { Logger } from '@nestjs/common';
import { McpTaskExecutor, McpTaskStore } from '../../src/index.js';
import { InProcessTaskExecutor } from '../../src/tasks/mcp-task-executor.js';
import { McpTaskQueueModule } from '../../src/bullmq/index.js';
import { BullmqTaskExecutor } from '../../src/bullmq/bullmq-task-executor.js';
import { McpRedisModule } from '../../src/redis/index.js';
import { RedisTaskStore } from '../../src/redis/redis-task.store.js';
import { initialize, LEGACY_VERSION, LegacyWire } from '../legacy/legacy-wire.js';
import { OidcTestProvider } from '../oauth2/oidc-test-provider.js';
import { freePort } from '../support/free-port.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { skillsFolder, WALK_IN_FILES } from '../skills/skills-app.fixture.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { mcpHeaders, envelope, post } from '../support/raw-mcp.js';
import { openSse } from '../support/sse-stream.js';
import {
  isolatedServersModule,
  ok,
  OPEN_APPROVED,
  OPEN_EXPORT,
  pollTask,
  rpc,
  STAFF_APPROVED,
  STAFF_EXPORT,
  TASKS,
  type WireOptions,
  type WireReply,
} from './isolated-servers.fixture.js';

// Issue 36: two MCP servers in one application — the open, global /mcp and /mcp/staff behind OAuth
// (isGlobal: false), each with its own `export_data` — must not leak into each other: tasks run on
// the server that created them and answer only there and only to their caller, tokens of one server
// open nothing on the other, and skills attached to /mcp stay there. Each combination runs one
// application (and, for Redis, one BullMQ worker on the suite's redis-server) for all its tests.

const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
const NOT_YOURS = 'Task not found (unknown, expired, or not yours)';
const YES = (key: string) => ({ [key]: { action: 'accept', content: { ok: true } } });
/** The open server's principal matching the staff token's `sub`: the same principal on both. */
const ALICE = 'alice';

type State = 'memory' | 'redis';
const COMBINATIONS = (['memory', 'redis'] as const).flatMap((state) =>
  ADAPTERS.map((adapter) => [adapter, state] as const),
);

let provider: OidcTestProvider;
let redis: RedisServer;
let skills: Awaited<ReturnType<typeof skillsFolder>>;

beforeAll(async () => {
  Logger.overrideLogger(false);
  [provider, redis, skills] = await Promise.all([
    OidcTestProvider.start(),
    startRedis(),
    skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES }),
  ]);
});
afterAll(async () => {
  await Promise.all([provider?.stop(), redis?.stop(), skills?.remove()]);
});

/** A reply refusing the task as unknown: -32602 with the request's id and the task id. */
function expectNotYours(reply: WireReply & { readonly id: number }, taskId: string): void {
  expect(reply.json).toMatchObject({ id: reply.id, error: { code: -32602, message: NOT_YOURS, data: { taskId } } });
  expect(reply.json.result).toBeUndefined();
}

/** The text of a completed task's result. */
const text = (task: any) => task.result.content;

describe.each(COMBINATIONS)('several servers, isolated (%s, state %s)', (adapter, state: State) => {
  let server: RunningApp;
  let openUrl: string;
  let staffUrl: string;
  let token: string;
  /** On the staff server, with alice's token. */
  let staff: WireOptions;
  /** On the open server, as alice (the same principal as the token's). */
  let alice: WireOptions;

  beforeAll(async () => {
    const port = await freePort();
    staffUrl = `http://127.0.0.1:${port}/mcp/staff`;
    const prefix = `isolated-${adapter}`;
    const imports =
      state === 'redis'
        ? [
            McpRedisModule.forRoot({ connection: redis.url, keyPrefix: `${prefix}:` }),
            McpTaskQueueModule.forRoot({ connection: redis.url, queueName: prefix }),
          ]
        : [];
    const module = isolatedServersModule({
      oauth2: { issuer: provider.issuer, audience: staffUrl },
      skills: skills.root,
      imports,
    });
    [server, token] = await Promise.all([
      startApp(module, adapter, { port }),
      provider.clientCredentials('alice', { resource: staffUrl }),
    ]);
    openUrl = server.url;
    staff = { token };
    alice = { user: ALICE };
  });
  afterAll(() => server?.close());

  /** Starts `export_data` as a task; resolves to its id. */
  async function exportTask(url: string, options: WireOptions): Promise<string> {
    const created = ok(await rpc(url, 'tools/call', { name: 'export_data', arguments: {} }, options));
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    return created.taskId as string;
  }

  /** Starts `approve_export` as a task and waits for its question; resolves to the task id and the question's key. */
  async function askingTask(url: string, options: WireOptions): Promise<{ taskId: string; key: string }> {
    const created = ok(await rpc(url, 'tools/call', { name: 'approve_export', arguments: {} }, options));
    expect(created.resultType).toBe('task');
    const asked = await pollTask(url, created.taskId, (task) => task.status === 'input_required', options);
    return { taskId: created.taskId, key: Object.keys(asked.inputRequests)[0]! };
  }

  it("runs same-named tools as tasks on each server's own handler", async () => {
    // The set-up is the one named: tasks in memory and in process, or in Redis and on the BullMQ queue.
    const executor = server.app.get(McpTaskExecutor, { strict: false });
    const store = server.app.get(McpTaskStore, { strict: false });
    if (state === 'redis') {
      expect(executor).toBeInstanceOf(BullmqTaskExecutor);
      expect(store).toBeInstanceOf(RedisTaskStore);
    } else {
      expect(executor).toBeInstanceOf(InProcessTaskExecutor);
      expect(store).not.toBeInstanceOf(RedisTaskStore);
    }
    const [openIds, staffIds] = await Promise.all([
      Promise.all([exportTask(openUrl, alice), exportTask(openUrl, {})]),
      Promise.all([exportTask(staffUrl, staff), exportTask(staffUrl, staff)]),
    ]);
    const done = (task: any) => task.status !== 'working';
    const open = await Promise.all([pollTask(openUrl, openIds[0], done, alice), pollTask(openUrl, openIds[1], done)]);
    const onStaff = await Promise.all(staffIds.map((id) => pollTask(staffUrl, id, done, staff)));
    for (const task of open) {
      expect(task.status).toBe('completed');
      expect(text(task)).toEqual([{ type: 'text', text: OPEN_EXPORT }]);
    }
    for (const task of onStaff) {
      expect(task.status).toBe('completed');
      expect(text(task)).toEqual([{ type: 'text', text: STAFF_EXPORT }]);
    }
  });

  it("refuses the other server's task ids (tasks/get, tasks/cancel), even for the same principal", async () => {
    const [staffTask, openTask] = await Promise.all([exportTask(staffUrl, staff), exportTask(openUrl, alice)]);
    await pollTask(staffUrl, staffTask, (task) => task.status === 'completed', staff);
    await pollTask(openUrl, openTask, (task) => task.status === 'completed', alice);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      // The staff task on /mcp: as alice (same principal), and with alice's token (anonymous there).
      expectNotYours(await rpc(openUrl, method, { taskId: staffTask }, alice), staffTask);
      expectNotYours(await rpc(openUrl, method, { taskId: staffTask }, staff), staffTask);
      // The open task on /mcp/staff, with alice's token.
      expectNotYours(await rpc(staffUrl, method, { taskId: openTask }, staff), openTask);
    }
    // Each server still serves its own, with its own result.
    const own = ok(await rpc(staffUrl, 'tasks/get', { taskId: staffTask }, staff));
    expect(text(own)).toEqual([{ type: 'text', text: STAFF_EXPORT }]);
    expect(text(ok(await rpc(openUrl, 'tasks/get', { taskId: openTask }, alice)))).toEqual([
      { type: 'text', text: OPEN_EXPORT },
    ]);
  });

  it("refuses tasks/update and tasks/cancel of the other server's waiting task, which goes on untouched", async () => {
    const [onStaff, onOpen] = await Promise.all([askingTask(staffUrl, staff), askingTask(openUrl, alice)]);
    for (const [task, owner, url, elsewhere, stranger, approved] of [
      [onStaff, staff, staffUrl, openUrl, alice, STAFF_APPROVED],
      [onOpen, alice, openUrl, staffUrl, staff, OPEN_APPROVED],
    ] as const) {
      const update = { taskId: task.taskId, inputResponses: YES(task.key) };
      expectNotYours(await rpc(elsewhere, 'tasks/update', update, stranger), task.taskId);
      expectNotYours(await rpc(elsewhere, 'tasks/cancel', { taskId: task.taskId }, stranger), task.taskId);
      expect(ok(await rpc(url, 'tasks/get', { taskId: task.taskId }, owner)).status).toBe('input_required');
      ok(await rpc(url, 'tasks/update', update, owner));
      const done = await pollTask(url, task.taskId, (t) => t.status !== 'working', owner);
      // Resumed (on the queue, for Redis) by its own server's handler.
      expect(done.status).toBe('completed');
      expect(text(done)).toEqual([{ type: 'text', text: approved }]);
    }
  });

  it("subscriptions/listen honours only the server's own task ids", async () => {
    const [staffTask, openTask] = await Promise.all([askingTask(staffUrl, staff), askingTask(openUrl, alice)]);
    const ids = [staffTask.taskId, openTask.taskId];
    const listen = (url: string, headers: Record<string, string>) =>
      openSse(
        url,
        {
          jsonrpc: '2.0',
          id: 'tasks-sub',
          method: 'subscriptions/listen',
          params: { notifications: { taskIds: ids }, _meta: envelope(TASKS) },
        },
        { ...mcpHeaders('subscriptions/listen'), ...headers },
      );
    const streams = await Promise.all([
      listen(openUrl, { 'x-user': ALICE }),
      listen(staffUrl, { authorization: `Bearer ${token}` }),
    ]);
    try {
      const [openAck, staffAck] = await Promise.all(
        streams.map((s) => s.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged')),
      );
      expect(openAck.params.notifications).toEqual({ taskIds: [openTask.taskId] });
      expect(staffAck.params.notifications).toEqual({ taskIds: [staffTask.taskId] });
    } finally {
      for (const stream of streams) stream.close();
    }
    await rpc(staffUrl, 'tasks/cancel', { taskId: staffTask.taskId }, staff);
    await rpc(openUrl, 'tasks/cancel', { taskId: openTask.taskId }, alice);
  });

  it("refuses the other server's requestState (-32602, authentication_failed) and completes its own", async () => {
    const plain = { capabilities: { elicitation: { form: {} } } };
    const call = { name: 'confirm', arguments: {} };
    const [fromOpen, fromStaff] = await Promise.all([
      rpc(openUrl, 'tools/call', call, { ...plain, ...alice }),
      rpc(staffUrl, 'tools/call', call, { ...plain, ...staff }),
    ]);
    for (const [first, url, owner, elsewhere, stranger] of [
      [ok(fromOpen), openUrl, alice, staffUrl, staff],
      [ok(fromStaff), staffUrl, staff, openUrl, alice],
    ] as const) {
      expect(first.resultType).toBe('input_required');
      const key = Object.keys(first.inputRequests)[0]!;
      const retry = { ...call, requestState: first.requestState, inputResponses: YES(key) };
      const refused = await rpc(elsewhere, 'tools/call', retry, { ...plain, ...stranger });
      expect(refused.json).toMatchObject({
        id: refused.id,
        error: { code: -32602, data: { reason: 'authentication_failed' } },
      });
      const own = ok(await rpc(url, 'tools/call', retry, { ...plain, ...owner }));
      expect(own.content).toEqual([{ type: 'text', text: 'confirmed' }]);
    }
  });

  it("refuses the other server's 2025-era Mcp-Session-Id with 404", async () => {
    const bearer = { authorization: `Bearer ${token}` };
    const [openSession, staffSession] = await Promise.all([
      LegacyWire.open(openUrl),
      LegacyWire.open(staffUrl, { elicitation: {} }, bearer),
    ]);
    const tools = async (session: LegacyWire) =>
      ((await session.request('tools/list')).json.result.tools as Array<{ name: string }>).map((t) => t.name).sort();
    expect(await tools(openSession)).toEqual(['approve_export', 'confirm', 'export_data', 'menu']);
    expect(await tools(staffSession)).toEqual(['approve_export', 'confirm', 'export_data', 'refund']);
    const onStaff = await post(
      staffUrl,
      { jsonrpc: '2.0', id: 71, method: 'tools/list', params: {} },
      { ...openSession.headers(), ...bearer },
    );
    expect(onStaff.status).toBe(404);
    expect(onStaff.json.id).toBe(71);
    const onOpen = await post(
      openUrl,
      { jsonrpc: '2.0', id: 72, method: 'tools/list', params: {} },
      staffSession.headers(),
    );
    expect(onOpen.status).toBe(404);
    expect(onOpen.json.id).toBe(72);
  });

  it('serves skills on /mcp only: /mcp/staff neither declares nor answers them', async () => {
    const discovered = ok(await rpc(openUrl, 'server/discover'));
    expect(Object.keys(discovered.capabilities.extensions)).toContain(SKILLS_EXTENSION);
    const listed = ok(await rpc(openUrl, 'skills/list'));
    const uri = 'skill://seat-a-walk-in/SKILL.md';
    expect(listed.skills.map((s: { uri: string }) => s.uri)).toEqual([uri]);
    expect(ok(await rpc(openUrl, 'skills/get', { uri })).skill.frontmatter.name).toBe('seat-a-walk-in');
    expect(ok(await rpc(openUrl, 'resources/read', { uri })).contents[0].text).toContain('# Seat a walk-in');

    const staffDiscovered = ok(await rpc(staffUrl, 'server/discover', {}, staff));
    expect(staffDiscovered.capabilities.extensions?.[SKILLS_EXTENSION]).toBeUndefined();
    for (const [method, params] of [
      ['skills/list', {}],
      ['skills/get', { uri }],
    ] as const) {
      const refused = await rpc(staffUrl, method, params, staff);
      expect(refused.status).toBe(404);
      expect(refused.json).toMatchObject({ id: refused.id, error: { code: -32601 } });
    }
    // Nor its files: the staff server serves no resource at all (resources/* is unknown there).
    const read = await rpc(staffUrl, 'resources/read', { uri }, staff);
    expect(read.json).toMatchObject({ id: read.id, error: { code: -32601 } });
    expect(read.json.result).toBeUndefined();

    // The 2025-era leg of each server says the same: its initialize result, and skills/list.
    const bearer = { authorization: `Bearer ${token}` };
    const hello = { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'isolated', version: '1' } };
    const [openHello, staffHello] = await Promise.all([
      initialize(openUrl, hello),
      initialize(staffUrl, hello, bearer),
    ]);
    expect(Object.keys(openHello.json.result.capabilities.extensions ?? {})).toContain(SKILLS_EXTENSION);
    expect(staffHello.json.result.capabilities.extensions?.[SKILLS_EXTENSION]).toBeUndefined();
    const [openSession, staffSession] = await Promise.all([
      LegacyWire.open(openUrl),
      LegacyWire.open(staffUrl, { elicitation: {} }, bearer),
    ]);
    const legacyListed = (await openSession.request('skills/list')).json.result;
    expect(legacyListed.skills.map((s: { uri: string }) => s.uri)).toEqual([uri]);
    expect((await staffSession.request('skills/list')).json.error).toMatchObject({ code: -32601 });
  });

  it('lists only its own tools on each server, and calls only those', async () => {
    const list = async (url: string, options: WireOptions) =>
      (ok(await rpc(url, 'tools/list', {}, options)).tools as Array<{ name: string; description: string }>).sort(
        (a, b) => a.name.localeCompare(b.name),
      );
    const open = await list(openUrl, {});
    const onStaff = await list(staffUrl, staff);
    expect(open.map((t) => t.name)).toEqual(['approve_export', 'confirm', 'export_data', 'menu']);
    expect(onStaff.map((t) => t.name)).toEqual(['approve_export', 'confirm', 'export_data', 'refund']);
    expect(open.find((t) => t.name === 'export_data')?.description).toBe('Exports the public menu');
    expect(onStaff.find((t) => t.name === 'export_data')?.description).toBe('Exports the payroll');
    expect(open.find((t) => t.name === 'approve_export')?.description).toBe('Asks, then exports the public menu');
    expect(onStaff.find((t) => t.name === 'approve_export')?.description).toBe('Asks, then exports the payroll');
    const plain = { capabilities: {} };
    const refund = await rpc(openUrl, 'tools/call', { name: 'refund', arguments: {} }, plain);
    expect(refund.json).toMatchObject({ id: refund.id, error: { code: -32602 } });
    const menu = await rpc(staffUrl, 'tools/call', { name: 'menu', arguments: {} }, { ...plain, ...staff });
    expect(menu.json).toMatchObject({ id: menu.id, error: { code: -32602 } });
    const sync = ok(await rpc(staffUrl, 'tools/call', { name: 'export_data', arguments: {} }, { ...plain, ...staff }));
    expect(sync.content).toEqual([{ type: 'text', text: STAFF_EXPORT }]);
  });

  it("keeps an anonymous caller's tasks to its client address", async () => {
    const creator = { localAddress: '127.0.0.1' };
    const other = { localAddress: '127.0.0.2' };
    const [exported, asking] = await Promise.all([exportTask(openUrl, creator), askingTask(openUrl, creator)]);
    for (const method of ['tasks/get', 'tasks/cancel']) {
      expectNotYours(await rpc(openUrl, method, { taskId: exported }, other), exported);
      expectNotYours(await rpc(openUrl, method, { taskId: asking.taskId }, other), asking.taskId);
    }
    const update = { taskId: asking.taskId, inputResponses: YES(asking.key) };
    expectNotYours(await rpc(openUrl, 'tasks/update', update, other), asking.taskId);
    // A named caller from the creator's own address is not the anonymous creator either.
    expectNotYours(await rpc(openUrl, 'tasks/get', { taskId: exported }, { ...creator, ...alice }), exported);

    const done = await pollTask(openUrl, exported, (task) => task.status !== 'working', creator);
    expect(text(done)).toEqual([{ type: 'text', text: OPEN_EXPORT }]);
    expect(ok(await rpc(openUrl, 'tasks/get', { taskId: asking.taskId }, creator)).status).toBe('input_required');
    ok(await rpc(openUrl, 'tasks/update', update, creator));
    const answered = await pollTask(openUrl, asking.taskId, (task) => task.status !== 'working', creator);
    expect(text(answered)).toEqual([{ type: 'text', text: OPEN_APPROVED }]);
  });
});
