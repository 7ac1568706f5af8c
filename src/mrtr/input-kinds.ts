import type {
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  InputRequest,
  InputResponse,
  ListRootsResult,
} from '../protocol/wire-types.js';
import { sanitizeElicitContent } from '../schema/requested-schema.validator.js';
import type { LedgerSlotKind } from './request-state.payload.js';

/*
 * The three kinds of input request MRTR allows, and what a well-formed answer to each looks like.
 * Anything else a client sends under a key counts as "not answered": the question is asked again,
 * which always lets the client recover (spec: re-ask rather than fail).
 */

const KIND_BY_METHOD: Readonly<Record<string, LedgerSlotKind>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The ledger kind of an input request. */
export function inputKind(request: InputRequest): LedgerSlotKind {
  const method = (request as { method?: unknown } | null)?.method;
  if (typeof method === 'string' && Object.hasOwn(KIND_BY_METHOD, method)) return KIND_BY_METHOD[method]!;
  throw new TypeError(`Not an MRTR input request: ${String(method)} (expected elicitation/create, sampling/createMessage or roots/list)`);
}

/**
 * The request exactly as it goes on the wire (and is fingerprinted): form elicitations always say
 * `mode: 'form'`, roots requests always carry `params`.
 */
export function normalizeInputRequest(request: InputRequest): InputRequest {
  switch (request.method) {
    case 'elicitation/create':
      if (request.params.mode === undefined) {
        return { method: request.method, params: { ...(request.params as ElicitRequestFormParams), mode: 'form' } };
      }
      return request;
    case 'roots/list':
      return request.params === undefined ? { method: request.method, params: {} } : request;
    default:
      return request;
  }
}

/**
 * The answer the handler may see for `request`, or `undefined` when `raw` is not a usable answer
 * to it (wrong shape for the kind, or accepted form content that does not fit the schema).
 * Accepted form content keeps only the fields the schema declares.
 */
export function readInputResponse(request: InputRequest, raw: Record<string, unknown>): InputResponse | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return readElicitResult(request, raw);
    case 'sampling/createMessage':
      return isCreateMessageResult(raw) ? raw : undefined;
    case 'roots/list':
      return isListRootsResult(raw) ? raw : undefined;
    default:
      return undefined;
  }
}

function readElicitResult(request: Extract<InputRequest, { method: 'elicitation/create' }>, raw: Record<string, unknown>): ElicitResult | undefined {
  const { action, content } = raw;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  if (content !== undefined && !isRecord(content)) return undefined;
  if (action !== 'accept' || request.params.mode === 'url') return { action };
  const accepted = sanitizeElicitContent(request.params.requestedSchema, content ?? {});
  return accepted === undefined ? undefined : { action, content: accepted };
}

function isCreateMessageResult(raw: Record<string, unknown>): raw is Record<string, unknown> & CreateMessageResult {
  const { role, content, model } = raw;
  if ((role !== 'user' && role !== 'assistant') || typeof model !== 'string') return false;
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.length > 0 && blocks.every((b) => isRecord(b) && typeof b['type'] === 'string');
}

function isListRootsResult(raw: Record<string, unknown>): raw is Record<string, unknown> & ListRootsResult {
  const { roots } = raw;
  return (
    Array.isArray(roots) &&
    roots.every((r) => isRecord(r) && typeof r['uri'] === 'string' && (r['name'] === undefined || typeof r['name'] === 'string'))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
