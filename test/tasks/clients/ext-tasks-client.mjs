// The official tasks client (@modelcontextprotocol/ext-tasks) as an application runs it: a plain Node
// process (one JavaScript realm; Jest's module sandbox gives parsed JSON another realm's prototypes,
// which the package's JSON checks refuse). Usage: node ext-tasks-client.mjs <url> <scenario> [month]
// (`follow`: node ext-tasks-client.mjs <url> follow <tool> <label>).
// Prints one JSON line: what the scenario observed.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';

const [url, scenario, month = 'March', ...extra] = process.argv.slice(2);
// Form elicitation too: a task's questions reach the client only if it says it can answer them
// (the `mute` scenario leaves it out).
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const CAPABILITIES = scenario === 'mute' ? TASKS : { ...TASKS, elicitation: { form: {} } };

const client = new Client(
  { name: 'ext-tasks-e2e', version: '1.0.0' },
  { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } },
);
await client.connect(new StreamableHTTPClientTransport(new URL(url)));

// The raw request path the package needs for a 2026-07-28 server: the host numbers each request
// and sends it as one POST with the routing headers Streamable HTTP asks for; the package frames
// the method, params and per-request envelope itself.
const sent = [];
let nextId = 1;
async function rawDispatch(framed) {
  const request = { jsonrpc: '2.0', id: nextId++, ...framed };
  sent.push(request.method);
  const name = request.params?.name ?? request.params?.taskId;
  const post = () =>
    fetch(url, {
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
  // A poll the balancer could not deliver (the node it reached died mid-request: 502, or the
  // connection failed) is sent again, as a host does; nothing else is retried.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await post();
      if (response.status !== 502 || request.method !== 'tasks/get' || attempt === 5) return response.json();
    } catch (error) {
      if (request.method !== 'tasks/get' || attempt === 5) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// What the server pushed on the host's subscriptions/listen stream, as it arrived. The package's
// adapter calls the handler it found on the client before its own, so this sees every notification
// the package sees.
const pushed = [];
client.fallbackNotificationHandler = async (notification) => {
  if (notification.method === 'notifications/tasks') {
    const { taskId, status, statusMessage } = notification.params;
    pushed.push({ taskId, status, statusMessage });
  }
};

// The application's answers to the questions a task asks (ext-tasks routes them here with the task's
// id, and sends the answer back with tasks/update). Any other question is declined.
const asked = [];
const ANSWERS = {
  'Publish the March report?': { action: 'accept', content: { publish: true } },
  'Include the no-shows?': { action: 'accept', content: { include: true } },
};
const onInputRequest = createApplicationInputHandler({
  elicitation: (request, context) => {
    const { scope, delivery, taskId, inputId } = context;
    asked.push({ message: request.params.message, scope, delivery, taskId, inputId });
    return ANSWERS[request.params.message] ?? { action: 'decline' };
  },
  sampling: () => {
    throw new Error('this client does not sample');
  },
  roots: () => ({ roots: [] }),
});

const session = createTaskSessionFromClient(client, {
  endpointId: 'mocapi-e2e',
  rawDispatch,
  v2RequestFraming: {
    protocolVersion: '2026-07-28',
    clientInfo: { name: 'ext-tasks-e2e', version: '1.0.0' },
    clientCapabilities: CAPABILITIES,
  },
  onInputRequest,
});

const scenarios = {
  async settle() {
    const execution = await session.callTool('quick_report', {});
    const { outcome } = await execution.settle();
    return { status: outcome.status, result: resultFromTaskOutcome(outcome) };
  },
  async cancel() {
    const execution = await session.callTool('endless', {});
    await execution.cancel();
    const { outcome } = await execution.settle();
    return { taskId: execution.handle?.taskId, status: outcome.status };
  },
  async input() {
    const execution = await session.callTool('publish_report', { month });
    const { outcome } = await execution.settle();
    const taskId = execution.handle?.taskId;
    return {
      kind: execution.kind,
      taskId,
      asked,
      sent,
      status: outcome.status,
      result: resultFromTaskOutcome(outcome),
    };
  },
  // Runs the tool named by the third argument with `{ label: <fourth> }` and prints `TASK <id>` as soon
  // as the task exists (so a test can kill the node running it), then settles it.
  async follow() {
    const [label] = extra;
    const execution = await session.callTool(month, { label });
    const taskId = execution.handle?.taskId;
    console.log(`TASK ${taskId}`);
    const { outcome } = await execution.settle();
    return { taskId, status: outcome.status, result: resultFromTaskOutcome(outcome) };
  },
  async mute() {
    const execution = await session.callTool('publish_report', { month });
    const { outcome } = await execution.settle();
    return { asked, status: outcome.status, code: outcome.error?.code, message: outcome.error?.message };
  },
  // The task waits until the host listens for it (then opens its gate): every change after that
  // reaches the client as notifications/tasks.
  async notify() {
    const execution = await session.callTool('watched_report', {});
    const taskId = execution.handle.taskId;
    const subscription = await client.listen({ taskIds: [taskId] });
    try {
      const seen = [];
      const settled = execution.settle({
        onEvent: (event) => {
          if (event.type === 'task') seen.push(event.task.status);
        },
      });
      await client.callTool({ name: 'open_gate', arguments: { taskId } });
      const { outcome } = await settled;
      const polls = sent.filter((method) => method === 'tasks/get').length;
      return {
        taskId,
        honored: subscription.honoredFilter,
        pushed,
        seen,
        polls,
        status: outcome.status,
        result: resultFromTaskOutcome(outcome),
      };
    } finally {
      await subscription.close();
    }
  },
};

let observed;
try {
  const run = scenarios[scenario];
  if (!run) throw new Error(`unknown scenario ${scenario}`);
  observed = await run();
} catch (error) {
  observed = { error: `${error?.name}: ${error?.message}` };
} finally {
  await session.close();
  await client.close();
}
console.log(JSON.stringify(observed));
