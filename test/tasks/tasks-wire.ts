import { rpc, type RawResponse } from '../support/raw-mcp.js';

/** Hand-built 2026-07-28 requests for the tasks extension (the official client has no runtime for it). */
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
export const WITH_ELICITATION = { ...TASKS, elicitation: { form: {} } };

let nextId = 1;

/** A fresh JSON-RPC id. */
export const newId = (): number => nextId++;

/** One request as `user` (the x-user header names the principal), with the routing headers it needs. */
export async function call(
  url: string,
  method: string,
  params: Record<string, unknown>,
  { user = 'alice', capabilities = TASKS as Record<string, unknown> } = {},
): Promise<RawResponse> {
  return rpc(url, method, params, { id: nextId++, capabilities, headers: { 'x-user': user } });
}

export function result(response: RawResponse): any {
  expect(response.json?.error).toBeUndefined();
  expect(response.status).toBe(200);
  return response.json.result;
}

/** Polls tasks/get until `done` holds (or fails after 5 s); returns the last task seen. */
export async function pollUntil(
  url: string,
  taskId: string,
  done: (task: any) => boolean,
  user = 'alice',
): Promise<any> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const task = result(await call(url, 'tasks/get', { taskId }, { user }));
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
