import { AnonymousPrincipalSource, McpPrincipalSource } from '../../src/core/mcp-principal-source.js';
import { ADAPTERS, type AdapterKind, type RunningApp } from '../support/start-app.js';
import { startMrtrApp } from './mrtr-app.js';
import { callTool, expectComplete, expectInputRequired, expectRejectedState, toolText } from './mrtr-wire.js';
import { MrtrTools, mrtrModule, type MrtrModuleSetup } from './mrtr.fixtures.js';
import {
  AppHeaderPrincipalSource,
  IntegrationHeaderPrincipalSource,
  StandInIntegrationModule,
} from './principal.fixtures.js';

const NAME = { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } };
type Order = 'integration imported first' | 'integration imported last';
const ORDERS: readonly Order[] = ['integration imported first', 'integration imported last'];

/** StandInIntegrationModule placed before or after McpModule in the application's imports. */
function withIntegration(order: Order, setup: MrtrModuleSetup = {}): MrtrModuleSetup {
  return order === 'integration imported first'
    ? { ...setup, importsBefore: [StandInIntegrationModule] }
    : { ...setup, importsAfter: [StandInIntegrationModule] };
}

/** Starts a flow as `minter`, replays it as `replayer`; returns the retry's response and whether the handler ran. */
async function replay(server: RunningApp, minter: Record<string, string>, replayer: Record<string, string>) {
  const round = expectInputRequired(await callTool(server.url, 'one_question', {}, { headers: minter }));
  const tools = server.app.get(MrtrTools);
  const before = tools.counter.of('one_question');
  const response = await callTool(
    server.url,
    'one_question',
    {},
    { requestState: round.requestState, inputResponses: NAME, headers: replayer },
  );
  return { response, handlerRan: tools.counter.of('one_question') > before };
}

describe.each(ADAPTERS)('McpPrincipalSource precedence, on %s', (adapter: AdapterKind) => {
  const servers: RunningApp[] = [];
  const start = async (setup: MrtrModuleSetup) => {
    const server = await startMrtrApp(mrtrModule(setup), adapter);
    servers.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  describe('the core default (no integration, no source of the application)', () => {
    it('resolves to the anonymous source, and binds every token to the null principal', async () => {
      const server = await start({});
      const source = server.app.get(McpPrincipalSource);
      expect(source).toBeInstanceOf(AnonymousPrincipalSource);

      // Identity headers mean nothing here: alice's flow completes for bob.
      const { response, handlerRan } = await replay(
        server,
        { 'x-user': 'alice', 'x-integration-user': 'alice' },
        { 'x-user': 'bob', 'x-integration-user': 'bob' },
      );
      expect(toolText(expectComplete(response))).toBe('Hello, Ada!');
      expect(handlerRan).toBe(true);
    });
  });

  describe.each(ORDERS)("an integration module's source (%s)", (order) => {
    let server: RunningApp;
    beforeAll(async () => {
      server = await start(withIntegration(order));
    });

    it('wins over the default', () => {
      const source = server.app.get(McpPrincipalSource);
      expect(source).toBeInstanceOf(IntegrationHeaderPrincipalSource);
      expect(source).toBe(server.app.get(IntegrationHeaderPrincipalSource));
    });

    it('binds tokens: minted for A, replayed as B → -32602 principal_mismatch, the handler does not run', async () => {
      const { response, handlerRan } = await replay(
        server,
        { 'x-integration-user': 'alice' },
        { 'x-integration-user': 'bob' },
      );
      expectRejectedState(response, 'principal_mismatch');
      expect(handlerRan).toBe(false);
    });

    it('the same caller completes (and the application-level header is not what it reads)', async () => {
      const { response } = await replay(
        server,
        { 'x-integration-user': 'alice', 'x-user': 'alice' },
        { 'x-integration-user': 'alice', 'x-user': 'bob' },
      );
      expect(toolText(expectComplete(response))).toBe('Hello, Ada!');
    });
  });

  describe.each(ORDERS)(
    "the application's own source, given as a class, next to an integration module (%s)",
    (order) => {
      let server: RunningApp;
      beforeAll(async () => {
        server = await start(withIntegration(order, { mcp: { principalSource: AppHeaderPrincipalSource } }));
      });

      it("wins over the integration module's and the default", () => {
        const source = server.app.get(McpPrincipalSource);
        expect(source).toBeInstanceOf(AppHeaderPrincipalSource);
        expect(source).not.toBeInstanceOf(IntegrationHeaderPrincipalSource);
      });

      it('binds tokens: minted for A, replayed as B → -32602 principal_mismatch, the handler does not run', async () => {
        const { response, handlerRan } = await replay(
          server,
          { 'x-user': 'alice', 'x-integration-user': 'carol' },
          { 'x-user': 'bob', 'x-integration-user': 'carol' },
        );
        expectRejectedState(response, 'principal_mismatch');
        expect(handlerRan).toBe(false);
      });

      it('the same caller completes, whatever the integration module would have said', async () => {
        const { response } = await replay(
          server,
          { 'x-user': 'alice', 'x-integration-user': 'carol' },
          { 'x-user': 'alice', 'x-integration-user': 'dave' },
        );
        expect(toolText(expectComplete(response))).toBe('Hello, Ada!');
      });
    },
  );

  describe.each(ORDERS)("the application's own source, given as an instance (%s)", (order) => {
    it("is used as is, ahead of the integration module's", async () => {
      const own = new AppHeaderPrincipalSource();
      const server = await start(withIntegration(order, { mcp: { principalSource: own } }));
      expect(server.app.get(McpPrincipalSource)).toBe(own);
      const { response, handlerRan } = await replay(server, { 'x-user': 'alice' }, { 'x-user': 'mallory' });
      expectRejectedState(response, 'principal_mismatch');
      expect(handlerRan).toBe(false);
    });
  });

  describe("the application's own source without any integration module", () => {
    it('wins over the default', async () => {
      const server = await start({ mcp: { principalSource: AppHeaderPrincipalSource } });
      expect(server.app.get(McpPrincipalSource)).toBeInstanceOf(AppHeaderPrincipalSource);
      const { response } = await replay(server, { 'x-user': 'alice' }, {});
      expectRejectedState(response, 'principal_mismatch');
    });
  });
});
