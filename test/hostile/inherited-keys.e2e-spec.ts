import { setTimeout as delay } from 'node:timers/promises';
import { McpTaskStore } from '../../src/index.js';
import { SurfaceModule } from '../fixtures/surface.module.js';
import { CapturingLogger, startMrtrApp } from '../mrtr/mrtr-app.js';
import { envelope, mcpHeaders, post, rpc } from '../support/raw-mcp.js';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { call, newId, pollUntil, result, WITH_ELICITATION } from '../tasks/tasks-wire.js';
import { tasksModule } from '../tasks/tasks.fixtures.js';

// Names every plain object inherits. A client may send any of them as a key (an answer key, an
// argument name); each must be an unknown key, never Object, a function or Object.prototype.
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe.each(ADAPTERS)('inherited names as client keys, on %s', (adapter) => {
  const logger = new CapturingLogger();
  afterEach(() => {
    // Nothing a client sends may produce an ERROR log line.
    expect(logger.errors).toEqual([]);
  });

  describe('tasks/update inputResponses', () => {
    let server: RunningApp;
    beforeAll(async () => {
      server = await startMrtrApp(tasksModule(), adapter, { logger });
    });
    afterAll(() => server.close());

    /** tasks/update with `inputResponses` written as raw JSON: JSON.parse then makes "__proto__" an own key. */
    const update = (taskId: string, inputResponses: string) =>
      post(
        server.url,
        `{"jsonrpc":"2.0","id":${newId()},"method":"tasks/update","params":{"taskId":${JSON.stringify(taskId)},` +
          `"inputResponses":${inputResponses},"_meta":${JSON.stringify(envelope(WITH_ELICITATION))}}}`,
        { ...mcpHeaders('tasks/update', taskId), 'x-user': 'alice' },
      );
    const answer = (name: string) => `{"action":"accept","content":{"name":"${name}"}}`;

    it('ignores them as unknown keys: the task record is not rewritten, and the real answers still resume it', async () => {
      const created = result(
        await call(server.url, 'tools/call', { name: 'two_questions' }, { capabilities: WITH_ELICITATION }),
      );
      const waiting = await pollUntil(server.url, created.taskId, (t) => t.status === 'input_required');
      expect(Object.keys(waiting.inputRequests)).toEqual(['elicit-1']);
      const store = server.app.get(McpTaskStore);
      const before = await store.get(created.taskId);
      expect(before?.answers).toEqual({});

      for (const name of INHERITED) {
        // Later than the record's lastUpdatedAt by more than its millisecond: a rewrite would show.
        await delay(5);
        const r = await update(created.taskId, `{${JSON.stringify(name)}:${answer('Mallory')}}`);
        // Unknown or extra keys SHOULD be ignored (spec 2026-07-28, input requests, error handling).
        expect(r.json.error).toBeUndefined();
        expect(result(r).resultType).toBe('complete');
        expect(await store.get(created.taskId)).toEqual(before);
        const seen = result(await call(server.url, 'tasks/get', { taskId: created.taskId }));
        expect(seen).toEqual(waiting);
      }
      // All of them at once.
      await delay(5);
      const all = INHERITED.map((name) => `${JSON.stringify(name)}:${answer('Mallory')}`).join(',');
      expect(result(await update(created.taskId, `{${all}}`)).resultType).toBe('complete');
      expect(await store.get(created.taskId)).toEqual(before);

      // Malformed under an inherited name is still protocol garbage: -32602, nothing written.
      const garbage = await update(created.taskId, '{"__proto__":5}');
      expect(garbage.json.error).toMatchObject({ code: -32602 });
      expect(await store.get(created.taskId)).toEqual(before);

      // The real answer beside them is taken, and only it: the task goes on to the next question.
      await update(created.taskId, `{"constructor":${answer('Mallory')},"elicit-1":${answer('Ada')}}`);
      const second = await pollUntil(
        server.url,
        created.taskId,
        (t) => t.status === 'input_required' && 'elicit-2' in t.inputRequests,
      );
      expect(second.inputRequests['elicit-2'].params.message).toBe('Deploy as Ada?');
      await update(
        created.taskId,
        `{"toString":{"action":"decline"},"elicit-2":{"action":"accept","content":{"confirm":true}}}`,
      );
      const done = await pollUntil(server.url, created.taskId, (t) => t.status === 'completed');
      expect(done.result.content[0].text).toBe('Deployed by Ada');
    });
  });

  describe('completion/complete argument names', () => {
    let server: RunningApp;
    beforeAll(async () => {
      server = await startMrtrApp(SurfaceModule, adapter, { logger });
    });
    afterAll(() => server.close());

    it.each(INHERITED)('%s names no completer: an empty completion, not -32603', async (name) => {
      for (const ref of [
        { type: 'ref/prompt', name: 'plan_trip' },
        { type: 'ref/resource', uri: 'orders://{id}' },
      ]) {
        const r = await rpc(server.url, 'completion/complete', { ref, argument: { name, value: '' } });
        expect(r.json.error).toBeUndefined();
        expect(r.json.result.completion).toEqual({ values: [], total: 0, hasMore: false });
      }
      // The declared completers still answer.
      const id = await rpc(server.url, 'completion/complete', {
        ref: { type: 'ref/resource', uri: 'orders://{id}' },
        argument: { name: 'id', value: '1' },
      });
      expect(id.json.result.completion.values).toEqual(['100', '101']);
    });
  });
});
