import { McpError } from '../protocol/mcp.error.js';

/** One page of a list result and the opaque cursor of the next, if any. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

const encodeCursor = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');

function decodeCursor(cursor: unknown): number {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor === 'string') {
    const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
    if (match) return Number(match[1]);
  }
  throw McpError.invalidParams('Invalid cursor', { cursor });
}

/** Cuts `items` into the page the cursor points at; a cursor we did not mint gets -32602. */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = decodeCursor(cursor);
  if (offset > items.length) throw McpError.invalidParams('Invalid cursor', { cursor });
  if (offset === 0 && items.length <= pageSize) return { items };
  const end = offset + pageSize;
  return end < items.length
    ? { items: items.slice(offset, end), nextCursor: encodeCursor(end) }
    : { items: items.slice(offset) };
}
