/**
 * The answer of the framework-floor targets (a bare Fastify route, a bare Nest route): the same
 * JSON-RPC body as an MCP server's `tools/call add`, computed from the parsed request (read the
 * id and the two arguments, add, build the result object; the framework serializes it), with no
 * MCP layer: no envelope or header checks, no schema validation, no tool registry.
 */

/** What a floor route returns for one parsed JSON-RPC request body. */
export function addRouteAnswer(body: unknown): Record<string, unknown> {
  const message = (typeof body === 'object' && body !== null ? body : {}) as {
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: { a?: unknown; b?: unknown } };
  };
  const id = message.id ?? null;
  const args = message.params?.arguments;
  if (message.method !== 'tools/call' || message.params?.name !== 'add') {
    return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Only tools/call add is served here' } };
  }
  if (typeof args?.a !== 'number' || typeof args.b !== 'number') {
    return { jsonrpc: '2.0', id, error: { code: -32602, message: 'add needs two numbers a and b' } };
  }
  return {
    jsonrpc: '2.0',
    id,
    result: { content: [{ type: 'text', text: String(args.a + args.b) }], resultType: 'complete' },
  };
}
