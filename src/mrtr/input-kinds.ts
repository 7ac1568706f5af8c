import type {
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  InputRequest,
  InputResponse,
  ListRootsResult,
} from '../protocol/wire-types.js';
import { sanitizeElicitContent } from '../schema/requested-schema-validator.js';
import type { LedgerSlotKind } from './request-state-payload.js';
import { isJsonObject } from '../protocol/is-json-object.js';

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
  throw new TypeError(
    `Not an MRTR input request: ${String(method)} (expected elicitation/create, sampling/createMessage or roots/list)`,
  );
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

/** Why an answer was not taken (the question is asked again), for the round's `_meta`. */
export type RefusedAnswer = { readonly reason: string };

/**
 * The answer the handler may see for `request` — reduced to the fields its kind defines (accepted
 * form content to the fields the schema declares) — or a {@link RefusedAnswer} when `raw` is not a
 * usable answer: the wrong shape for the kind, content that does not fit the schema, or more than
 * `maxChars` characters of JSON once reduced (it would be sealed into every later requestState).
 */
export function readInputResponse(
  request: InputRequest,
  raw: Record<string, unknown>,
  maxChars = Number.POSITIVE_INFINITY,
): InputResponse | RefusedAnswer {
  const answer = reduce(request, raw);
  if (answer === undefined)
    return {
      reason: `not a valid answer to ${request.method}${request.method === 'elicitation/create' ? ' with the requested schema' : ''}`,
    };
  if (maxChars !== Number.POSITIVE_INFINITY && JSON.stringify(answer).length > maxChars) {
    return { reason: `larger than ${maxChars} characters of JSON (mrtr.maxAnswerChars)` };
  }
  return answer;
}

/**
 * A copy of an answer the ledger holds. A form answer is flat by its schema (strings, numbers,
 * booleans, lists of strings), so it is copied by hand at a fraction of what `structuredClone`
 * costs; any other answer is cloned.
 */
export function copyInputResponse(answer: InputResponse): InputResponse {
  const { action, content } = answer as Partial<ElicitResult>;
  if (typeof action !== 'string' || Object.keys(answer).length !== (content === undefined ? 1 : 2)) {
    return structuredClone(answer);
  }
  if (content === undefined) return { action } as ElicitResult;
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(content)) {
    const value: unknown = content[name];
    if (typeof value === 'object' && value !== null && !isStringList(value)) return structuredClone(answer);
    Object.defineProperty(copy, name, {
      value: Array.isArray(value) ? [...(value as string[])] : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { action, content: copy } as ElicitResult;
}

function isStringList(value: object): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Whether {@link readInputResponse} refused the answer. */
export function isRefusedAnswer(answer: InputResponse | RefusedAnswer): answer is RefusedAnswer {
  return typeof (answer as RefusedAnswer).reason === 'string' && Object.keys(answer).length === 1;
}

function reduce(request: InputRequest, raw: Record<string, unknown>): InputResponse | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return readElicitResult(request, raw);
    case 'sampling/createMessage':
      return readCreateMessageResult(raw);
    case 'roots/list':
      return readListRootsResult(raw);
    default:
      return undefined;
  }
}

function readElicitResult(
  request: Extract<InputRequest, { method: 'elicitation/create' }>,
  raw: Record<string, unknown>,
): ElicitResult | undefined {
  const { action, content } = raw;
  if (action !== 'accept' && action !== 'decline' && action !== 'cancel') return undefined;
  if (content !== undefined && !isJsonObject(content)) return undefined;
  if (action !== 'accept' || request.params.mode === 'url') return { action };
  const accepted = sanitizeElicitContent(request.params.requestedSchema, content ?? {});
  return accepted === undefined ? undefined : { action, content: accepted };
}

/** role, content, model and stopReason: whatever else a client adds is not carried. */
function readCreateMessageResult(raw: Record<string, unknown>): CreateMessageResult | undefined {
  const { role, content, model, stopReason } = raw;
  if ((role !== 'user' && role !== 'assistant') || typeof model !== 'string') return undefined;
  const blocks = Array.isArray(content) ? content : [content];
  if (blocks.length === 0 || !blocks.every((b) => isJsonObject(b) && typeof b['type'] === 'string')) return undefined;
  return {
    role,
    content: content as CreateMessageResult['content'],
    model,
    ...(typeof stopReason === 'string' && { stopReason }),
  } as CreateMessageResult;
}

/** Each root's uri and name, nothing else. */
function readListRootsResult(raw: Record<string, unknown>): ListRootsResult | undefined {
  const { roots } = raw;
  if (!Array.isArray(roots)) return undefined;
  if (
    !roots.every(
      (r) =>
        isJsonObject(r) && typeof r['uri'] === 'string' && (r['name'] === undefined || typeof r['name'] === 'string'),
    )
  )
    return undefined;
  return {
    roots: roots.map((r: Record<string, unknown>) => ({
      uri: r['uri'] as string,
      ...(r['name'] !== undefined && { name: r['name'] as string }),
    })),
  };
}
