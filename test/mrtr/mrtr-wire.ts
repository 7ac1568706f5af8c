import { rpc, type RawResponse } from '../support/raw-mcp.js';

/** Form elicitation declared the way the spec's minimal client does it. */
export const ELICIT_CAPS = { elicitation: {} };
export const INVALID_STATE_MESSAGE = 'Invalid or expired requestState';
const STACK_TRACE = /\n\s+at |node_modules|\.ts:\d+/;

export interface RetryParts {
  requestState?: unknown;
  inputResponses?: unknown;
  /** Client capabilities of this request (default: form elicitation). */
  capabilities?: Record<string, unknown>;
  /** Extra HTTP headers (e.g. the caller identity read by a test principal source). */
  headers?: Record<string, string>;
}

let nextId = 1;

/** One hand-built MCP request over real HTTP, with the retry fields exactly as given. */
export async function mcpCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  parts: RetryParts = {},
): Promise<RawResponse> {
  const response = await rpc(
    url,
    method,
    {
      ...params,
      ...(parts.requestState !== undefined && { requestState: parts.requestState }),
      ...(parts.inputResponses !== undefined && { inputResponses: parts.inputResponses }),
    },
    { id: `mrtr-${nextId++}`, capabilities: parts.capabilities ?? ELICIT_CAPS, headers: parts.headers },
  );
  // Nothing a client sends may leak a stack trace.
  expect(response.text).not.toMatch(STACK_TRACE);
  return response;
}

export const callTool = (
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  parts?: RetryParts,
): Promise<RawResponse> => mcpCall(url, 'tools/call', { name, arguments: args }, parts);

export const getPrompt = (
  url: string,
  name: string,
  args: Record<string, string> = {},
  parts?: RetryParts,
): Promise<RawResponse> => mcpCall(url, 'prompts/get', { name, arguments: args }, parts);

export const readResource = (url: string, uri: string, parts?: RetryParts): Promise<RawResponse> =>
  mcpCall(url, 'resources/read', { uri }, parts);

export interface InputRequiredRound {
  inputRequests: Record<string, { method: string; params: Record<string, any> }>;
  requestState: string;
}

/** Asserts an `input_required` answer (HTTP 200) and returns its requests and token. */
export function expectInputRequired(response: RawResponse): InputRequiredRound {
  expect(response.status).toBe(200);
  expect(response.json.error).toBeUndefined();
  const result = response.json.result;
  expect(result.resultType).toBe('input_required');
  expect(typeof result.requestState).toBe('string');
  expect(result.requestState.length).toBeGreaterThan(0);
  expect(Object.keys(result.inputRequests).length).toBeGreaterThan(0);
  return { inputRequests: result.inputRequests, requestState: result.requestState };
}

/** Asserts a `complete` answer (HTTP 200) and returns the result. */
export function expectComplete(response: RawResponse): any {
  expect(response.status).toBe(200);
  expect(response.json.error).toBeUndefined();
  expect(response.json.result.resultType).toBe('complete');
  expect(response.json.result.inputRequests).toBeUndefined();
  expect(response.json.result.requestState).toBeUndefined();
  return response.json.result;
}

/** The text of a tool result's first content block. */
export const toolText = (result: any): string => result.content[0].text;

/** Asserts the fixed rejection of a requestState: -32602, HTTP 400, the opaque message and the reason. */
export function expectRejectedState(response: RawResponse, reason: string): void {
  expect({ status: response.status, error: response.json?.error }).toEqual({
    status: 400,
    error: { code: -32602, message: INVALID_STATE_MESSAGE, data: { reason } },
  });
  expect(response.json.result).toBeUndefined();
}

/** The bytes of a token with byte `index` inverted, re-encoded as the canonical base64url. */
export function flipByte(token: string, index: number): string {
  const bytes = Buffer.from(token, 'base64url');
  bytes[index] = bytes[index]! ^ 0xff;
  return bytes.toString('base64url');
}
