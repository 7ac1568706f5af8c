import { Injectable } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpInbound } from '../calls/mcp-inbound.js';
import { McpTool } from '../decorators/mcp-tool.decorator.js';
import { McpModule } from '../mcp.module.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../protocol/meta-keys.js';
import { McpDispatcher } from './mcp-dispatcher.js';

@Injectable()
class Tools {
  @McpTool({ name: 'echo', description: 'Echoes its text' })
  echo(input: { text?: string }): string {
    return String(input.text);
  }
}

const envelope = { [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: {} };

function stdioInbound(): McpInbound {
  return new McpInbound({
    transport: { kind: 'stdio' },
    signal: () => new AbortController().signal,
    notify: () => undefined,
  });
}

/** The 2026-07-28 leg on its own, with the real module around it and no transport. */
describe('McpDispatcher', () => {
  let module: TestingModule;
  let dispatcher: McpDispatcher;

  beforeAll(async () => {
    module = await Test.createTestingModule({
      imports: [McpModule.forRoot({ name: 'dispatch-spec', version: '1.0.0' })],
      providers: [Tools],
    }).compile();
    await module.init();
    dispatcher = module.get(McpDispatcher, { strict: false });
  });
  afterAll(() => module.close());

  const dispatch = (message: unknown) => dispatcher.dispatch(message, stdioInbound());

  it('answers a request through the method table, with its id', async () => {
    const outcome = await dispatch({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' }, _meta: envelope },
    });
    expect(outcome?.status).toBe(200);
    expect(outcome?.response).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'hi' }] },
    });
  });

  it('stamps the results in one place: cache hints on a list, none on a call', async () => {
    const request = (id: number, method: string, params: Record<string, unknown>) =>
      dispatch({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } });
    const list = (await request(1, 'tools/list', {}))?.response as { result: Record<string, unknown> };
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(list.result['_meta']).toHaveProperty(['io.modelcontextprotocol/serverInfo', 'name'], 'dispatch-spec');
    const call = (await request(2, 'tools/call', { name: 'echo', arguments: { text: 'x' } }))?.response as {
      result: Record<string, unknown>;
    };
    expect(call.result['resultType']).toBe('complete');
    expect(call.result).not.toHaveProperty('ttlMs');
  });

  it('refuses a batch, a message that is not JSON-RPC 2.0 and a response, as Invalid Request', async () => {
    for (const message of [
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
      { id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]) {
      const outcome = await dispatch(message);
      expect(outcome?.response).toMatchObject({ error: { code: McpErrorCode.InvalidRequest } });
    }
  });

  it('gives a notification no answer', async () => {
    await expect(dispatch({ jsonrpc: '2.0', method: 'notifications/initialized' })).resolves.toBeUndefined();
  });

  it('answers an unknown method and a method of a capability not advertised with -32601 and the id', async () => {
    for (const method of ['nope/nothing', 'prompts/list']) {
      const outcome = await dispatch({ jsonrpc: '2.0', id: 'x', method, params: { _meta: envelope } });
      expect(outcome?.response).toMatchObject({ id: 'x', error: { code: McpErrorCode.MethodNotFound } });
    }
    expect(dispatcher.handlerOf('tools/call')).toBeDefined();
    expect(dispatcher.handlerOf('prompts/get')).toBeUndefined();
  });

  it('answers a request without the _meta envelope with -32602 and HTTP 400', async () => {
    const outcome = await dispatch({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    expect(outcome?.status).toBe(400);
    expect(outcome?.response).toMatchObject({ id: 2, error: { code: McpErrorCode.InvalidParams } });
  });

  it('sets the trace on the request it was given, for the observers', async () => {
    const inbound = stdioInbound();
    await dispatcher.dispatch({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: envelope } }, inbound);
    expect(inbound.trace).toMatchObject({ method: 'tools/list', id: 3, protocolVersion: '2026-07-28' });
  });
});
