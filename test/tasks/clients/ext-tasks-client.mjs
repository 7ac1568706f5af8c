// The official tasks client (@modelcontextprotocol/ext-tasks) as an application runs it: a plain Node
// process (one JavaScript realm; Jest's module sandbox gives parsed JSON another realm's prototypes,
// which the package's JSON checks refuse). Usage: node ext-tasks-client.mjs <url> <scenario>.
// Prints one JSON line: what the scenario observed.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';

const [url, scenario] = process.argv.slice(2);
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

const client = new Client(
  { name: 'ext-tasks-e2e', version: '1.0.0' },
  { capabilities: TASKS, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

// The raw request path the package needs for a 2026-07-28 server: the host numbers each request
// and sends it as one POST with the routing headers Streamable HTTP asks for; the package frames
// the method, params and per-request envelope itself.
let nextId = 1;
async function rawDispatch(framed) {
  const request = { jsonrpc: '2.0', id: nextId++, ...framed };
  const name = request.params?.name ?? request.params?.taskId;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': request.method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
    },
    body: JSON.stringify(request),
  });
  return response.json();
}

const session = createTaskSessionFromClient(client, {
  endpointId: 'mocapi-e2e',
  rawDispatch,
  v2RequestFraming: {
    protocolVersion: '2026-07-28',
    clientInfo: { name: 'ext-tasks-e2e', version: '1.0.0' },
    clientCapabilities: TASKS,
  },
});

let observed;
try {
  if (scenario === 'settle') {
    const execution = await session.callTool('quick_report', {});
    const { outcome } = await execution.settle();
    observed = { status: outcome.status, result: resultFromTaskOutcome(outcome) };
  } else if (scenario === 'cancel') {
    const execution = await session.callTool('endless', {});
    await execution.cancel();
    const { outcome } = await execution.settle();
    observed = { status: outcome.status };
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
} catch (error) {
  observed = { error: `${error?.name}: ${error?.message}` };
} finally {
  await session.close();
  await client.close();
}
console.log(JSON.stringify(observed));
