import type { ElicitResult } from '@modelcontextprotocol/client';
import type { AdapterKind, RunningApp } from '../support/start-app.js';
import { startMrtrApp } from './mrtr-app.js';
import { connectElicitingClient } from './mrtr-client.js';
import { callTool, expectComplete, expectInputRequired, expectRejectedState, toolText } from './mrtr-wire.js';
import { MrtrTools, SECRET_A, SECRET_B, mrtrModule } from './mrtr.fixtures.js';

const NAME = { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } };
const THREE = [
  { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
  { 'elicit-2': { action: 'accept', content: { age: 36 } } },
  { 'elicit-3': { action: 'accept', content: { color: 'green' } } },
];

/** The key id a token was sealed under (bytes 1–4 of its header). */
const keyIdOf = (token: string): string => Buffer.from(token, 'base64url').subarray(1, 5).toString('hex');
const withSecrets = (secrets?: string[]) => mrtrModule({ mcp: { mrtr: secrets ? { secrets } : {} } });

const PAIRS: Array<[AdapterKind, AdapterKind]> = [
  ['express', 'fastify'],
  ['fastify', 'express'],
];

describe.each(PAIRS)('two nodes sharing a key ring (%s, then %s)', (first, second) => {
  let a: RunningApp;
  let b: RunningApp;

  beforeAll(async () => {
    a = await startMrtrApp(withSecrets([SECRET_A]), first);
    b = await startMrtrApp(withSecrets([SECRET_A]), second);
    expect(a.url).not.toBe(b.url);
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('a flow the official client starts on one node completes on the other', async () => {
    const beforeA = a.app.get(MrtrTools).counter.of('one_question');
    const beforeB = b.app.get(MrtrTools).counter.of('one_question');
    const c = await connectElicitingClient(a.url, {
      onElicit: (): ElicitResult => ({ action: 'accept', content: { name: 'Grace' } }),
      // Every retry (a request carrying requestState) is load-balanced to the other node.
      route: (request, url) => (request?.params?.requestState ? b.url : url),
    });
    try {
      const result = await c.client.callTool({ name: 'one_question', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
      expect(c.calls().map((w) => w.url)).toEqual([a.url, b.url]);
    } finally {
      await c.close();
    }
    expect(a.app.get(MrtrTools).counter.of('one_question') - beforeA).toBe(1);
    expect(b.app.get(MrtrTools).counter.of('one_question') - beforeB).toBe(1);
  });

  it('a three-round flow can hop nodes on every round', async () => {
    let round = expectInputRequired(await callTool(a.url, 'three_questions'));
    round = expectInputRequired(
      await callTool(b.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[0] }),
    );
    round = expectInputRequired(
      await callTool(a.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[1] }),
    );
    const done = expectComplete(
      await callTool(b.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[2] }),
    );
    expect(done.structuredContent).toEqual({ name: 'Ada', age: 36, color: 'green' });
  });

  it('without a configured secret each node has its own random key: the other node refuses the token (unknown_key)', async () => {
    const lonelyA = await startMrtrApp(withSecrets(undefined), first);
    const lonelyB = await startMrtrApp(withSecrets(undefined), second);
    try {
      const round = expectInputRequired(await callTool(lonelyA.url, 'one_question'));
      const before = lonelyB.app.get(MrtrTools).counter.of('one_question');
      expectRejectedState(
        await callTool(lonelyB.url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
        'unknown_key',
      );
      expect(lonelyB.app.get(MrtrTools).counter.of('one_question')).toBe(before);
      expectComplete(
        await callTool(lonelyA.url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
      );
    } finally {
      await lonelyA.close();
      await lonelyB.close();
    }
  });
});

describe.each(PAIRS)('key rotation (%s / %s)', (first, second) => {
  /** Before rotation: [A]. During: [B, A] (B seals, both open). After: [B]. */
  let before: RunningApp;
  let during: RunningApp;
  let after: RunningApp;

  beforeAll(async () => {
    before = await startMrtrApp(withSecrets([SECRET_A]), first);
    during = await startMrtrApp(withSecrets([SECRET_B, SECRET_A]), second);
    after = await startMrtrApp(withSecrets([SECRET_B]), first);
  });
  afterAll(async () => {
    await before.close();
    await during.close();
    await after.close();
  });

  it('a token minted under a key that has moved to second place in the ring is accepted', async () => {
    const round = expectInputRequired(await callTool(before.url, 'one_question'));
    const done = expectComplete(
      await callTool(during.url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
    );
    expect(toolText(done)).toBe('Hello, Ada!');
  });

  it('a token whose key has left the ring is rejected (unknown_key), and the handler does not run', async () => {
    const round = expectInputRequired(await callTool(before.url, 'one_question'));
    const count = after.app.get(MrtrTools).counter.of('one_question');
    expectRejectedState(
      await callTool(after.url, 'one_question', {}, { requestState: round.requestState, inputResponses: NAME }),
      'unknown_key',
    );
    expect(after.app.get(MrtrTools).counter.of('one_question')).toBe(count);
  });

  it('the first key of the ring seals: tokens from the rotating node open after rotation, not before it', async () => {
    const sealedDuring = expectInputRequired(await callTool(during.url, 'one_question')).requestState;
    expect(keyIdOf(sealedDuring)).toBe(
      keyIdOf(expectInputRequired(await callTool(after.url, 'one_question')).requestState),
    );
    expect(keyIdOf(sealedDuring)).not.toBe(
      keyIdOf(expectInputRequired(await callTool(before.url, 'one_question')).requestState),
    );
    expectComplete(await callTool(after.url, 'one_question', {}, { requestState: sealedDuring, inputResponses: NAME }));
    expectRejectedState(
      await callTool(before.url, 'one_question', {}, { requestState: sealedDuring, inputResponses: NAME }),
      'unknown_key',
    );
  });

  it('a live flow survives the rotation: started before, continued during, finished after', async () => {
    let round = expectInputRequired(await callTool(before.url, 'three_questions'));
    round = expectInputRequired(
      await callTool(during.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[0] }),
    );
    round = expectInputRequired(
      await callTool(after.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[1] }),
    );
    const done = expectComplete(
      await callTool(after.url, 'three_questions', {}, { requestState: round.requestState, inputResponses: THREE[2] }),
    );
    expect(done.structuredContent).toEqual({ name: 'Ada', age: 36, color: 'green' });
  });
});
