import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { startMrtrApp } from './mrtr-app.js';
import { connectElicitingClient, type ElicitingClient } from './mrtr-client.js';
import { MrtrPrompts, MrtrResources, MrtrTools, mrtrModule } from './mrtr.fixtures.js';

/** Answers every form the way a user would: fills each requested field with a plausible value. */
function fillForm(params: ElicitRequest['params']): ElicitResult {
  const schema = (params as { requestedSchema?: { properties: Record<string, any> } }).requestedSchema;
  if (!schema) return { action: 'accept' };
  const content: Record<string, string | number | boolean> = {};
  for (const [name, definition] of Object.entries(schema.properties)) {
    if (definition.enum) content[name] = definition.enum.at(-1);
    else if (definition.type === 'integer' || definition.type === 'number') content[name] = 42;
    else if (definition.type === 'boolean') content[name] = true;
    else if (definition.format === 'email') content[name] = 'ada@example.com';
    else
      content[name] =
        name === 'name' ? 'Ada' : name === 'topic' ? 'dragons' : name === 'fruit' ? 'quince' : `my ${name}`;
  }
  return { action: 'accept', content };
}

describe.each(ADAPTERS)('MRTR with the official v2 client answering elicitations, on %s', (adapter) => {
  let server: RunningApp;
  let tools: MrtrTools;
  let prompts: MrtrPrompts;
  let resources: MrtrResources;
  const clients: ElicitingClient[] = [];
  const connect = async (options: Parameters<typeof connectElicitingClient>[1]) => {
    const c = await connectElicitingClient(server.url, options);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startMrtrApp(mrtrModule(), adapter);
    tools = server.app.get(MrtrTools);
    prompts = server.app.get(MrtrPrompts);
    resources = server.app.get(MrtrResources);
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    await server.close();
  });

  it('one question: the client is asked, retries with the byte-exact token, and the handler runs twice', async () => {
    const c = await connect({ onElicit: fillForm });
    const result = await c.client.callTool({ name: 'one_question', arguments: {} });

    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(c.asked).toEqual([
      {
        mode: 'form',
        message: 'What is your name?',
        requestedSchema: {
          type: 'object',
          properties: { name: { type: 'string', title: 'Name' } },
          required: ['name'],
        },
      },
    ]);
    const [first, retry] = c.calls();
    expect(c.calls()).toHaveLength(2);
    expect(first!.request.params.requestState).toBeUndefined();
    expect(first!.response.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'elicit-1': { method: 'elicitation/create' } },
    });
    expect(retry!.request.id).not.toEqual(first!.request.id);
    expect(retry!.request.params.requestState).toBe(first!.response.result.requestState);
    expect(retry!.request.params.inputResponses).toEqual({
      'elicit-1': { action: 'accept', content: { name: 'Ada' } },
    });
    expect(retry!.response.result.resultType).toBe('complete');
    expect(tools.counter.of('one_question')).toBe(2);
  });

  it('three questions take N+1 = 4 rounds, one question per round, each token folding in the answers so far', async () => {
    const before = tools.counter.of('three_questions');
    const c = await connect({ onElicit: fillForm });
    const result = await c.client.callTool({ name: 'three_questions', arguments: {} });

    expect(result.structuredContent).toEqual({ name: 'Ada', age: 42, color: 'blue' });
    expect(c.asked.map((p) => p.message)).toEqual(['Your name?', 'Your age?', 'Favourite colour?']);
    const calls = c.calls();
    expect(calls).toHaveLength(4);
    expect(calls.slice(0, 3).map((w) => Object.keys(w.response.result.inputRequests))).toEqual([
      ['elicit-1'],
      ['elicit-2'],
      ['elicit-3'],
    ]);
    for (let i = 1; i < calls.length; i++) {
      expect(calls[i]!.request.params.requestState).toBe(calls[i - 1]!.response.result.requestState);
    }
    // Each retry answers only the question of the round before; earlier answers ride in the token.
    expect(calls.slice(1).map((w) => Object.keys(w.request.params.inputResponses))).toEqual([
      ['elicit-1'],
      ['elicit-2'],
      ['elicit-3'],
    ]);
    const tokens = calls.slice(0, 3).map((w) => w.response.result.requestState as string);
    expect(tokens[1]!.length).toBeGreaterThan(tokens[0]!.length);
    expect(tokens[2]!.length).toBeGreaterThan(tokens[1]!.length);
    expect(tools.counter.of('three_questions') - before).toBe(4);
  });

  it('a batched round: two forms and a roots request go out together and are answered in one retry', async () => {
    const c = await connect({ onElicit: fillForm, roots: [{ uri: 'file:///work', name: 'work' }] });
    const result = await c.client.callTool({ name: 'batched', arguments: {} });

    expect(result.content).toEqual([
      { type: 'text', text: 'email=ada@example.com; subscribe=true; roots=file:///work' },
    ]);
    const calls = c.calls();
    expect(calls).toHaveLength(2);
    const inputRequests = calls[0]!.response.result.inputRequests;
    expect(Object.keys(inputRequests).sort()).toEqual(['contact', 'newsletter', 'workspace']);
    expect(inputRequests.workspace).toEqual({ method: 'roots/list', params: {} });
    expect(Object.keys(calls[1]!.request.params.inputResponses).sort()).toEqual(['contact', 'newsletter', 'workspace']);
    expect(tools.counter.of('batched')).toBe(2);
  });

  it.each([
    ['declined', 'decline'],
    ['cancelled', 'cancel'],
  ] as const)('a %s form is an ordinary answer handed to the handler', async (_label, action) => {
    const before = tools.counter.of('one_question');
    const c = await connect({ onElicit: () => ({ action }) });
    const result = await c.client.callTool({ name: 'one_question', arguments: {} });

    expect(result.content).toEqual([{ type: 'text', text: `no name (${action})` }]);
    expect(result.isError).toBeFalsy();
    expect(c.calls()[1]!.request.params.inputResponses).toEqual({ 'elicit-1': { action } });
    expect(tools.counter.of('one_question') - before).toBe(2);
  });

  it('prompts/get elicits too', async () => {
    const c = await connect({ onElicit: fillForm });
    const result = await c.client.getPrompt({ name: 'story' });

    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write a short story about dragons.' } },
    ]);
    expect(c.asked.map((p) => p.message)).toEqual(['Which topic?']);
    expect(c.calls().map((w) => w.request.method)).toEqual(['prompts/get', 'prompts/get']);
    expect(prompts.counter.of('story')).toBe(2);
  });

  // Fails while src/methods/resources.methods.ts stamps a retried read without ttlMs/cacheScope:
  // the client's 2026-07-28 schema requires both on every ReadResourceResult and rejects the final result.
  it('resources/read elicits too, for a static resource and for a template', async () => {
    const c = await connect({ onElicit: fillForm });
    const vault = await c.client.readResource({ uri: 'mrtr://vault' });
    const note = await c.client.readResource({ uri: 'mrtr://notes/42' });

    expect(vault.contents).toEqual([{ uri: 'mrtr://vault', mimeType: 'text/plain', text: 'vault opened with quince' }]);
    expect(note.contents).toEqual([{ uri: 'mrtr://notes/42', mimeType: 'text/plain', text: 'note 42: buy milk' }]);
    expect(c.asked.map((p) => p.message)).toEqual(['Passphrase hint: your favourite fruit?', 'Show note 42?']);
    expect(c.calls()).toHaveLength(4);
    // A retried read must not be cached: ttlMs 0, private.
    expect(c.calls()[1]!.response.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(resources.counter.of('vault')).toBe(2);
    expect(resources.counter.of('note:42')).toBe(2);
  });

  it('canElicit() lets a handler adapt to a client without elicitation (no round, no error)', async () => {
    const before = tools.counter.of('adaptive');
    const plain = await connect({});
    const adapted = await plain.client.callTool({ name: 'adaptive', arguments: {} });
    expect(adapted.content).toEqual([{ type: 'text', text: 'size=M (default, client cannot elicit)' }]);
    expect(plain.calls()).toHaveLength(1);
    expect(plain.calls()[0]!.response.result.resultType).toBe('complete');

    const eliciting = await connect({ onElicit: fillForm });
    const asked = await eliciting.client.callTool({ name: 'adaptive', arguments: {} });
    expect(asked.content).toEqual([{ type: 'text', text: 'size=L' }]);
    expect(tools.counter.of('adaptive') - before).toBe(3);
  });

  it('asking a client that did not declare elicitation fails with -32021 and the required capability, HTTP 400', async () => {
    const plain = await connect({});
    await expect(plain.client.callTool({ name: 'one_question', arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    const [call] = plain.calls();
    expect(call!.status).toBe(400);
    expect(call!.response.error.code).toBe(-32021);
  });
});

describe('requestState size on the wire (official client, express)', () => {
  let server: RunningApp;
  let client: ElicitingClient;

  beforeAll(async () => {
    server = await startMrtrApp(mrtrModule(), 'express');
    client = await connectElicitingClient(server.url, {
      // A realistic short answer per question.
      onElicit: (params) => ({
        action: 'accept',
        content: { value: `answer to ${(params as { message: string }).message.split(':')[0]}` },
      }),
      maxRounds: 60,
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('grows linearly with the ledger: tokens carrying 1, 10 and 50 answers', async () => {
    const result = await client.client.callTool({ name: 'ask_n', arguments: { n: 51 } });
    expect(result.content).toEqual([{ type: 'text', text: 'answers=51; last=answer to Question 51 of 51' }]);

    // The token the client echoes on retry k+1 carries k answered slots (and one pending slot).
    const retries = client.calls().slice(1);
    expect(retries).toHaveLength(51);
    const tokenWithAnswers = (k: number): string => retries[k]!.request.params.requestState;
    const sizes = Object.fromEntries([0, 1, 10, 50].map((k) => [k, tokenWithAnswers(k).length]));
    const requestBytes = Object.fromEntries([1, 10, 50].map((k) => [k, JSON.stringify(retries[k]!.request).length]));
    console.log(
      `requestState size (base64url chars) by answered slots: ${JSON.stringify(sizes)}; ` +
        `whole retry request (bytes) by answered slots: ${JSON.stringify(requestBytes)}`,
    );

    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes[10]).toBeGreaterThan(sizes[1]!);
    expect(sizes[50]).toBeGreaterThan(sizes[10]!);
    const perAnswer = (sizes[50]! - sizes[10]!) / 40;
    // Linear: the per-answer cost between 1 and 10 answers matches the one between 10 and 50.
    expect(Math.abs((sizes[10]! - sizes[1]!) / 9 - perAnswer)).toBeLessThan(4);
    expect(sizes[50]).toBeLessThan(65_536);
  });
});
