import type { ClientCapabilities, CreateMessageRequestParams, InputRequest } from '../protocol/wire-types.js';
import { isJsonObject } from '../protocol/is-json-object.js';

/*
 * The spec forbids putting an input request kind in `inputRequests` unless the client declared it
 * on this very request (`_meta` clientCapabilities). These checks decide it, and name the smallest
 * ClientCapabilities object that would have allowed the request (for `-32021`'s
 * `data.requiredCapabilities`).
 */

/** Form mode is declared by `elicitation.form`, or by an `elicitation` object naming no mode (`{}`). */
export function supportsElicitation(capabilities: ClientCapabilities, mode: 'form' | 'url'): boolean {
  const elicitation = capabilities.elicitation;
  if (!isJsonObject(elicitation)) return false;
  if (mode === 'url') return isJsonObject(elicitation.url);
  return isJsonObject(elicitation.form) || elicitation.url === undefined;
}

/** Sampling, plus `sampling.tools` for tools/toolChoice and `sampling.context` for includeContext. */
export function supportsSampling(capabilities: ClientCapabilities, params?: CreateMessageRequestParams): boolean {
  return missingSampling(capabilities, params) === undefined;
}

export function supportsRoots(capabilities: ClientCapabilities): boolean {
  return isJsonObject(capabilities.roots);
}

/** What the client must declare before `request` may be sent, or `undefined` when it already has. */
export function missingCapabilities(
  request: InputRequest,
  capabilities: ClientCapabilities,
): ClientCapabilities | undefined {
  switch (request.method) {
    case 'elicitation/create': {
      const mode = request.params.mode === 'url' ? 'url' : 'form';
      return supportsElicitation(capabilities, mode) ? undefined : { elicitation: { [mode]: {} } };
    }
    case 'sampling/createMessage':
      return missingSampling(capabilities, request.params);
    case 'roots/list':
      return supportsRoots(capabilities) ? undefined : { roots: {} };
    default:
      return undefined;
  }
}

/** Merges several requirements into one object, e.g. `{ elicitation: { url: {} }, sampling: {} }`. */
export function mergeCapabilities(requirements: readonly ClientCapabilities[]): ClientCapabilities {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const requirement of requirements) {
    for (const [name, value] of Object.entries(requirement)) {
      merged[name] = { ...merged[name], ...(value as Record<string, unknown>) };
    }
  }
  return merged;
}

function missingSampling(
  capabilities: ClientCapabilities,
  params?: CreateMessageRequestParams,
): ClientCapabilities | undefined {
  const sampling = capabilities.sampling;
  const needsTools = params !== undefined && (params.tools !== undefined || params.toolChoice !== undefined);
  const needsContext = params?.includeContext !== undefined && params.includeContext !== 'none';
  const required: Record<string, object> = {};
  if (needsTools && !(isJsonObject(sampling) && isJsonObject(sampling.tools))) required['tools'] = {};
  if (needsContext && !(isJsonObject(sampling) && isJsonObject(sampling.context))) required['context'] = {};
  if (isJsonObject(sampling) && Object.keys(required).length === 0) return undefined;
  return { sampling: required };
}
