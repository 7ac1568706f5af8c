// Keys of the per-request `_meta` envelope and of result `_meta` (spec 2026-07-28, SEP-2575).

/** Request `_meta` key for the protocol version; required on every request, else -32602 (HTTP 400). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
/**
 * Request `_meta` key for the client's `ClientCapabilities`; required on every request (`{}` means
 * none) and never inferred from earlier requests.
 */
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
/** Request `_meta` key for the client's `Implementation`; optional, so the server must not require it. */
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
/**
 * Optional, deprecated request `_meta` key naming the lowest `LoggingLevel` wanted. Without it the
 * server must send no `notifications/message` for that request.
 */
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
/** Result `_meta` key under which the server names itself (an `Implementation`) on every result. */
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/**
 * Notification `_meta` key on every message of a `subscriptions/listen` stream after the ack; its value
 * is the JSON-RPC id of the listen request.
 */
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
/**
 * Request `_meta` key (not namespaced) for the token that `notifications/progress` must echo; without
 * it the server sends no progress for that request.
 */
export const META_PROGRESS_TOKEN = 'progressToken';
/**
 * Result `_meta` key (this module's own) on an input-required round: the answers of the retry that
 * were not taken, by input-request key, each with the reason (not a valid answer, larger than
 * allowed, refused by the handler). Their questions are asked again in the same round.
 */
export const META_REFUSED_INPUT_RESPONSES = 'io.mocapi/refusedInputResponses';
