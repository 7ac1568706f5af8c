import { ADAPTERS, type RunningApp } from '../support/start-app.js';
import { CapturingLogger, startMrtrApp } from './mrtr-app.js';
import { callTool, expectComplete, expectInputRequired, toolText } from './mrtr-wire.js';
import { MrtrTools, mrtrModule } from './mrtr.fixtures.js';
import { EnhancedTools, EnhancerLog, catchAllModule, wrappingModule } from './enhancers.fixtures.js';

const COLOUR = { 'elicit-1': { action: 'accept', content: { color: 'teal' } } };

describe.each(ADAPTERS)("the input-required signal and the application's own enhancers, on %s", (adapter) => {
  describe('a global catch-all interceptor and a global catch-all exception filter', () => {
    let server: RunningApp;
    let log: EnhancerLog;
    let tools: EnhancedTools;

    beforeAll(async () => {
      server = await startMrtrApp(catchAllModule(), adapter);
      log = server.app.get(EnhancerLog);
      tools = server.app.get(EnhancedTools);
    });
    afterAll(async () => {
      await server.close();
    });

    it('are live: the interceptor turns a tool error into a value, the filter turns a guard error into a value', async () => {
      expect(toolText(expectComplete(await callTool(server.url, 'boom')))).toBe('intercepted: Error');
      expect(toolText(expectComplete(await callTool(server.url, 'guarded_boom')))).toBe('filtered: Error');
      expect(log.interceptorErrors).toContain('Error');
      expect(log.filterExceptions).toContain('Error');
    });

    it('do not swallow the signal: the round still happens and they never see it as an error', async () => {
      const round = expectInputRequired(await callTool(server.url, 'ask'));
      expect(round.inputRequests['elicit-1']!.params.message).toBe('Colour?');
      const done = expectComplete(
        await callTool(server.url, 'ask', {}, { requestState: round.requestState, inputResponses: COLOUR }),
      );
      expect(toolText(done)).toBe('colour=teal');
      expect(tools.counter.of('ask')).toBe(2);
      expect(log.interceptorErrors).not.toContain('InputRequiredException');
      expect(log.filterExceptions).not.toContain('InputRequiredException');
      // The interceptor saw the sealed round as an ordinary value.
      expect(log.interceptorValues).toContainEqual(expect.objectContaining({ resultType: 'input_required' }));
    });

    it('a catch-all interceptor on the handler itself (@UseInterceptors) does not swallow it either', async () => {
      const round = expectInputRequired(await callTool(server.url, 'ask_locally_intercepted'));
      const done = expectComplete(
        await callTool(
          server.url,
          'ask_locally_intercepted',
          {},
          { requestState: round.requestState, inputResponses: COLOUR },
        ),
      );
      expect(toolText(done)).toBe('colour=teal');
      expect(log.localInterceptorErrors).not.toContain('InputRequiredException');
    });

    // Fails today: a guard runs inside the exception-filter zone but outside every interceptor, so a
    // global catch-all filter gets the signal before the module's interceptor or MrtrCallRunner can
    // (src/discovery/mcp-handler.factory.ts adds an interceptor, no filter). The filter's value becomes
    // a complete result and the runner logs the "swallowed in a catch block" warning.
    it('a guard that asks for input still gets its round under a global catch-all filter', async () => {
      const response = await callTool(server.url, 'guard_asks');
      expect(log.filterExceptions).not.toContain('InputRequiredException');
      const round = expectInputRequired(response);
      expect(round.inputRequests['elicit-1']!.params.message).toBe('Are you sure?');
      const done = expectComplete(
        await callTool(
          server.url,
          'guard_asks',
          {},
          {
            requestState: round.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { sure: true } } },
          },
        ),
      );
      expect(toolText(done)).toBe('confirmed by the guard');
    });
  });

  describe("a global interceptor that wraps every value ({ data: value }, as in Nest's docs)", () => {
    let server: RunningApp;

    beforeAll(async () => {
      server = await startMrtrApp(wrappingModule(), adapter);
    });
    afterAll(async () => {
      await server.close();
    });

    // Fails today: the application's interceptor is outside the module's, so it maps the sealed
    // InputRequiredResult into { data: ... }; tools.methods.ts then normalises that into a complete
    // CallToolResult whose text and structuredContent carry the requestState to the model.
    it('does not turn the round into a complete result', async () => {
      const response = await callTool(server.url, 'ask');
      const round = expectInputRequired(response);
      const done = expectComplete(
        await callTool(server.url, 'ask', {}, { requestState: round.requestState, inputResponses: COLOUR }),
      );
      expect(done.structuredContent).toEqual({ data: 'colour=teal' });
    });
  });

  describe('a handler whose own broad catch swallows the signal (documented hazard)', () => {
    let server: RunningApp;
    let tools: MrtrTools;
    const logger = new CapturingLogger();

    beforeAll(async () => {
      server = await startMrtrApp(mrtrModule(), adapter, { logger });
      tools = server.app.get(MrtrTools);
    });
    afterAll(async () => {
      await server.close();
    });

    it('is pinned: the catch block runs (that is the hazard), the round is still answered, and a warning names the remedy', async () => {
      const response = await callTool(server.url, 'broad_catch');
      const round = expectInputRequired(response);
      expect(Object.keys(round.inputRequests ?? {})).toEqual(['elicit-1']);
      expect(tools.caught).toEqual(['InputRequiredException']);
      expect(tools.counter.of('broad_catch')).toBe(1);
      const warnings = logger.warnings.filter((w) => w.startsWith('McpElicitation:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('tools/call broad_catch: the input request was intercepted on its way out');
      expect(warnings[0]).toContain('if (isInputRequired(e)) throw e;');
    });

    it('the remedy works: a broad catch that rethrows isInputRequired(e) gets its round, with no warning', async () => {
      const warningsBefore = logger.warnings.length;
      const round = expectInputRequired(await callTool(server.url, 'careful_catch'));
      const done = expectComplete(
        await callTool(
          server.url,
          'careful_catch',
          {},
          {
            requestState: round.requestState,
            inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
          },
        ),
      );
      expect(toolText(done)).toBe('answered accept ok=true');
      expect(logger.warnings.slice(warningsBefore).filter((w) => w.startsWith('McpElicitation:'))).toEqual([]);
    });
  });
});
