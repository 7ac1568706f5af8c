import { isJsonObject } from '../../protocol/is-json-object.js';
import type { McpIcon } from '../../protocol/icons.js';
import { LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol/protocol-version.js';
import type { ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';
import { frozenJson } from '../../task-store/frozen-json.js';
import { remotesProblem } from './server-card-remotes.js';

/**
 * The Server Card of one server (SEP-2127, the draft extension `io.modelcontextprotocol/server-card`):
 * a public document that registries, catalogs and hosts read at `GET <path>/server-card` to learn
 * what the server is and where to connect before they connect. The card's `version`, `title` and
 * `icons` are the server's own (`version`, `title`, `icons`), so the card cannot contradict what a
 * connected client is told; what only the card says is here.
 *
 * ```ts
 * McpModule.forRoot({
 *   name: 'orders',
 *   version: '1.4.0',
 *   card: { name: 'com.example/orders', description: 'Looks up and refunds orders', baseUrl: 'https://mcp.example.com' },
 * })
 * ```
 *
 * @publicApi
 */
export interface McpServerCardOptions {
  /**
   * The card's name: a reverse-DNS namespace, one slash, then the server's name
   * (`com.example/orders`), 3 to 200 characters: letters, digits, `.` and `-` (and `_` after the
   * slash). Registries key servers by it. Required.
   */
  name: string;
  /** What the server does, for people choosing a server: 1 to 100 characters. Required. */
  description: string;
  /** The server's home page or documentation, an `http(s)` URL. */
  websiteUrl?: string;
  /** Where the server's source code is. */
  repository?: McpServerCardRepository;
  /**
   * The public URL the application is reached at, e.g. `https://mcp.example.com` (or
   * `https://example.com/api` behind a proxy that strips `/api`): the card then lists this
   * server's endpoint there (`baseUrl` + `path`) as its `streamable-http` remote, with the protocol
   * versions the server serves. Without it (and without `remotes`) the card lists no remote: from
   * inside the application the public origin cannot be known (a proxy may stand in front of it, and
   * the `Host` header is whatever the client sent).
   */
  baseUrl?: string;
  /**
   * The card's remotes as written, instead of the one `baseUrl` makes: e.g. a URL with
   * `{variables}` or headers a client must send. Set `baseUrl` or `remotes`, not both.
   */
  remotes?: McpServerCardRemote[];
  /** Extension metadata, keyed by reverse-DNS names (`com.example/region`). */
  _meta?: Record<string, unknown>;
}

/**
 * Where a server's source code is (the card's `repository`).
 *
 * @publicApi
 */
export interface McpServerCardRepository {
  /** The repository's URL, to browse or clone it. */
  url: string;
  /** The hosting service, e.g. `github`. */
  source: string;
  /** The server's folder in the repository, a relative path (a monorepo). */
  subfolder?: string;
  /** The hosting service's id of the repository, which survives a rename. */
  id?: string;
}

/**
 * One endpoint a client may connect to (an entry of the card's `remotes`).
 *
 * @publicApi
 */
export interface McpServerCardRemote {
  /** The transport served there. */
  type: 'streamable-http' | 'sse';
  /** `http(s)://…`, or a URL starting with a `{variable}`; `{variables}` are filled in from `variables`. */
  url: string;
  /** Headers a client sends when it connects there. */
  headers?: McpServerCardHeader[];
  /** The `{variables}` of `url`, by name. */
  variables?: Record<string, McpServerCardInput>;
  /** The protocol versions served there, e.g. `['2026-07-28', '2025-11-25']`. */
  supportedProtocolVersions?: string[];
}

/**
 * A value a client supplies to connect: a variable of a remote's URL or of a header's value.
 *
 * @publicApi
 */
export interface McpServerCardInput {
  /** What the value is, for the person asked for it. */
  description?: string;
  /** Whether a connection needs it. */
  isRequired?: boolean;
  /** Whether it is a secret (a token, a password), to be kept as one. */
  isSecret?: boolean;
  /** How to read it. */
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** The value used when none is given. */
  default?: string;
  /** An example shown while the value is asked for. */
  placeholder?: string;
  /** A fixed value, not asked for (it may contain `{variables}`). */
  value?: string;
  /** The values allowed, one of which is chosen. */
  choices?: string[];
}

/**
 * A header a client sends to a remote.
 *
 * @publicApi
 */
export interface McpServerCardHeader extends McpServerCardInput {
  /** The header's name. */
  name: string;
  /** The `{variables}` of `value`, by name. */
  variables?: Record<string, McpServerCardInput>;
}

/** The card as served: the v1 Server Card document. */
export interface McpServerCard {
  readonly $schema: typeof SERVER_CARD_SCHEMA;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly title?: string;
  readonly websiteUrl?: string;
  readonly repository?: McpServerCardRepository;
  readonly icons?: readonly McpIcon[];
  readonly remotes?: readonly McpServerCardRemote[];
  readonly _meta?: Record<string, unknown>;
}

/** The `$schema` of a v1 Server Card (the extension's schema identifier; versioned by `v1`, not by date). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

const OPTIONS = ['name', 'description', 'websiteUrl', 'repository', 'baseUrl', 'remotes', '_meta'];
/** Fields of the card that come from the server's own options, of the same names. */
const FROM_SERVER = ['version', 'title', 'icons'];
const REPOSITORY = ['url', 'source', 'subfolder', 'id'];

/** Reverse-DNS namespace, one slash, the server's name (the v1 schema's pattern). */
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/**
 * The server's card, built once from `card` and the server's own options and frozen, or undefined
 * when it serves none (`card` absent or `false`: a card needs at least a `name` and a
 * `description`, which only `card` gives). Each problem, naming the server by its path, is added
 * to `problems`.
 */
export function resolveServerCard(
  card: unknown,
  server: ResolvedMcpServerOptions,
  problems: string[],
): McpServerCard | undefined {
  if (card === undefined || card === false) return undefined;
  const found = isJsonObject(card)
    ? cardProblems(card, server)
    : ['`card` must be an object ({ name, description, … }) or false'];
  for (const problem of found) problems.push(`${problem} (the Server Card of the server at ${server.path})`);
  return found.length > 0 ? undefined : buildCard(card as unknown as McpServerCardOptions, server);
}

/** Whatever in `card`, or in the server options the card takes, would not make a v1 card. */
function cardProblems(card: Record<string, unknown>, server: ResolvedMcpServerOptions): string[] {
  const found: string[] = [];
  for (const key of Object.keys(card)) {
    if (FROM_SERVER.includes(key)) {
      found.push(`\`card.${key}\` is not an option: the card takes the server's \`${key}\``);
    } else if (!OPTIONS.includes(key)) {
      found.push(`\`card.${key}\` is not an option of the Server Card (${OPTIONS.join(', ')})`);
    }
  }
  const { name, description, websiteUrl, repository, baseUrl, remotes, _meta } = card;
  if (typeof name !== 'string' || !CARD_NAME.test(name) || name.length < 3 || name.length > 200) {
    found.push(
      `\`card.name\` ${name === undefined ? 'is required' : 'must be'} a reverse-DNS namespace, a slash and the ` +
        "server's name, e.g. 'com.example/orders' (3 to 200 characters: letters, digits, '.' and '-', and '_' after the slash)",
    );
  }
  if (typeof description !== 'string' || description.trim() === '' || characters(description) > 100) {
    const given = typeof description === 'string' ? ` (it has ${characters(description)})` : '';
    found.push(
      `\`card.description\` ${description === undefined ? 'is required' : 'must be'} what the server does, in 1 to 100 characters${given}`,
    );
  }
  if (websiteUrl !== undefined && !isHttpUrl(websiteUrl)) found.push('`card.websiteUrl` must be an http(s) URL');
  const repositoryProblem = repository === undefined ? undefined : checkRepository(repository);
  if (repositoryProblem !== undefined) found.push(repositoryProblem);
  if (baseUrl !== undefined && !isBaseUrl(baseUrl)) {
    found.push("`card.baseUrl` must be an http(s) URL without query or fragment, e.g. 'https://mcp.example.com'");
  }
  const remotesIssue = remotes === undefined ? undefined : remotesProblem(remotes, 'card.remotes');
  if (remotesIssue !== undefined) found.push(remotesIssue);
  if (baseUrl !== undefined && remotes !== undefined) {
    found.push('`card.baseUrl` and `card.remotes` are both set: give one (baseUrl makes the one remote of `path`)');
  }
  if (_meta !== undefined && !(isJsonObject(_meta) && jsonCopy(_meta) !== undefined)) {
    found.push('`card._meta` must be an object of JSON values');
  }
  if (characters(server.version) > 255)
    found.push("`version` must be at most 255 characters: it is the card's version");
  if (server.title !== undefined && characters(server.title) > 100) {
    found.push("`title` must be at most 100 characters: it is the card's title");
  }
  return found;
}

/** The card of checked options: the server's fields and the card's own, copied and frozen. */
function buildCard(card: McpServerCardOptions, server: ResolvedMcpServerOptions): McpServerCard {
  const { name, description, websiteUrl, repository, baseUrl, remotes, _meta } = card;
  return frozenJson({
    $schema: SERVER_CARD_SCHEMA,
    name,
    version: server.version,
    description,
    ...(server.title !== undefined && server.title !== '' && { title: server.title }),
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(repository !== undefined && { repository: pick(repository, REPOSITORY) as unknown as McpServerCardRepository }),
    ...(server.icons !== undefined && server.icons.length > 0 && { icons: server.icons }),
    ...(baseUrl !== undefined && { remotes: [ownRemote(baseUrl, server)] }),
    ...(remotes !== undefined && { remotes: jsonCopy(remotes) as McpServerCardRemote[] }),
    ...(_meta !== undefined && { _meta: jsonCopy(_meta) as Record<string, unknown> }),
  });
}

/** The server's own endpoint at `baseUrl`, with the versions it serves. */
function ownRemote(baseUrl: string, server: ResolvedMcpServerOptions): McpServerCardRemote {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    type: 'streamable-http',
    url: `${base}${server.path}`,
    supportedProtocolVersions: [
      ...(server.eras.modern ? SUPPORTED_PROTOCOL_VERSIONS : []),
      ...(server.eras.legacy ? LEGACY_PROTOCOL_VERSIONS : []),
    ],
  };
}

function checkRepository(value: unknown): string | undefined {
  const shape = '`card.repository` must be { url, source, subfolder?, id? }';
  if (!isJsonObject(value)) return shape;
  const unknown = Object.keys(value).find((key) => !REPOSITORY.includes(key));
  if (unknown !== undefined) return `${shape}, not ${unknown}`;
  if (!isHttpUrl(value['url'])) return '`card.repository.url` must be an http(s) URL';
  if (!isText(value['source'])) return "`card.repository.source` must be the hosting service, e.g. 'github'";
  const subfolder = value['subfolder'];
  if (
    subfolder !== undefined &&
    (!isText(subfolder) || subfolder.startsWith('/') || subfolder.split('/').some((part) => part === '..'))
  ) {
    return "`card.repository.subfolder` must be a relative path in the repository, e.g. 'servers/orders'";
  }
  if (value['id'] !== undefined && !isText(value['id'])) return '`card.repository.id` must be a non-empty string';
  return undefined;
}

/** Unicode characters, as JSON Schema's `maxLength` counts them. */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
}

function isBaseUrl(value: unknown): value is string {
  return isHttpUrl(value) && !/[?#]/.test(value) && new URL(value).username === '';
}

/** A copy of `value` as JSON carries it, or undefined when JSON cannot (a cycle, a bigint). */
function jsonCopy(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return undefined;
  }
}

function pick(value: object, keys: readonly string[]): Record<string, unknown> {
  const fields = value as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => fields[key] !== undefined).map((key) => [key, fields[key]]));
}
