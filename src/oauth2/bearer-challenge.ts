import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';

/** What goes into a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface BearerChallengeParams {
  readonly resourceMetadataUrl: string;
  /** Every scope the operation needs; omitted from the header when empty. */
  readonly scopes: readonly string[];
  readonly error?: 'invalid_token' | 'insufficient_scope';
  readonly description?: string;
}

/** Formats the header value. Parameter values are quoted strings; quotes and backslashes are escaped. */
export function formatBearerChallenge(params: BearerChallengeParams): string {
  const parts: string[] = [];
  if (params.error) parts.push(`error="${quote(params.error)}"`);
  if (params.description) parts.push(`error_description="${quote(params.description)}"`);
  parts.push(`resource_metadata="${quote(params.resourceMetadataUrl)}"`);
  if (params.scopes.length > 0) parts.push(`scope="${quote(params.scopes.join(' '))}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** 401: no token (no `error`), or an invalid / expired one (`invalid_token`). */
export function unauthorizedChallenge(
  params: Omit<BearerChallengeParams, 'error'> & { error?: 'invalid_token' },
): McpHttpChallenge {
  const body = params.error
    ? { error: params.error, error_description: params.description ?? 'The access token is invalid' }
    : { error: 'unauthorized', error_description: 'A bearer access token is required' };
  return new McpHttpChallenge(401, { 'WWW-Authenticate': formatBearerChallenge(params) }, body);
}

/** 403 `insufficient_scope`, naming every scope the operation needs so the client can step up. */
export function insufficientScopeChallenge(resourceMetadataUrl: string, scopes: readonly string[]): McpHttpChallenge {
  const description = 'The access token lacks a required scope';
  return new McpHttpChallenge(
    403,
    {
      'WWW-Authenticate': formatBearerChallenge({
        resourceMetadataUrl,
        scopes,
        error: 'insufficient_scope',
        description,
      }),
    },
    { error: 'insufficient_scope', error_description: description, scope: scopes.join(' ') },
  );
}

function quote(value: string): string {
  return value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]/g, ' ');
}
