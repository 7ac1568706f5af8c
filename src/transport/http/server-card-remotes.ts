import { isJsonObject } from '../../protocol/is-json-object.js';

/** `http(s)://` and no whitespace, or a leading `{variable}` (the v1 schema's pattern of a remote's URL). */
const REMOTE_URL = /^(https?:\/\/[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$/;
const TRANSPORTS = ['streamable-http', 'sse'];
const FORMATS = ['string', 'number', 'boolean', 'filepath'];
const TEXT_FIELDS = ['description', 'default', 'placeholder', 'value'];
const FLAG_FIELDS = ['isRequired', 'isSecret'];

/**
 * The first problem of a card's `remotes` (`path` names them, e.g. 'card.remotes'),
 * or undefined when each remote has the fields and types of the v1 schema. Fields the schema does
 * not know pass as they are: the card is an open document.
 */
export function remotesProblem(value: unknown, path: string): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return `\`${path}\` must be a non-empty array of remotes`;
  for (let i = 0; i < value.length; i++) {
    const problem = remoteProblem(value[i], `\`${path}[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function remoteProblem(remote: unknown, path: string): string | undefined {
  if (!isJsonObject(remote)) return `\`${path}\` must be an object { type, url, headers?, variables?, … }`;
  if (!TRANSPORTS.includes(remote['type'] as string)) return `\`${path}.type\` must be 'streamable-http' or 'sse'`;
  const url = remote['url'];
  if (typeof url !== 'string' || !REMOTE_URL.test(url)) {
    return `\`${path}.url\` must be an http(s) URL, or start with a {variable}, without spaces`;
  }
  const headers = remote['headers'];
  if (headers !== undefined) {
    if (!Array.isArray(headers)) return `\`${path}.headers\` must be an array of { name, … }`;
    for (let i = 0; i < headers.length; i++) {
      const header: unknown = headers[i];
      const where = `\`${path}.headers[${i}]`;
      if (!isJsonObject(header) || typeof header['name'] !== 'string' || header['name'].trim() === '') {
        return `\`${where}\` must be an object with a header \`name\``;
      }
      const problem = inputProblem(header, where) ?? variablesProblem(header['variables'], `\`${where}.variables`);
      if (problem !== undefined) return problem;
    }
  }
  const variables = variablesProblem(remote['variables'], `\`${path}.variables`);
  if (variables !== undefined) return variables;
  const versions = remote['supportedProtocolVersions'];
  if (
    versions !== undefined &&
    !(Array.isArray(versions) && versions.every((v) => typeof v === 'string' && v !== ''))
  ) {
    return `\`${path}.supportedProtocolVersions\` must be an array of protocol versions, e.g. ['2026-07-28']`;
  }
  return undefined;
}

function variablesProblem(variables: unknown, path: string): string | undefined {
  if (variables === undefined) return undefined;
  if (!isJsonObject(variables)) return `\`${path}\` must be an object of inputs, by variable name`;
  for (const [name, input] of Object.entries(variables)) {
    if (!isJsonObject(input)) return `\`${path}.${name}\` must be an object { description?, isRequired?, … }`;
    const problem = inputProblem(input, `\`${path}.${name}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function inputProblem(input: Record<string, unknown>, path: string): string | undefined {
  for (const field of TEXT_FIELDS) {
    if (input[field] !== undefined && typeof input[field] !== 'string') return `\`${path}.${field}\` must be a string`;
  }
  for (const field of FLAG_FIELDS) {
    if (input[field] !== undefined && typeof input[field] !== 'boolean')
      return `\`${path}.${field}\` must be a boolean`;
  }
  if (input['format'] !== undefined && !FORMATS.includes(input['format'] as string)) {
    return `\`${path}.format\` must be one of ${FORMATS.map((f) => `'${f}'`).join(', ')}`;
  }
  const choices = input['choices'];
  if (choices !== undefined && !(Array.isArray(choices) && choices.every((c) => typeof c === 'string'))) {
    return `\`${path}.choices\` must be an array of strings`;
  }
  return undefined;
}
