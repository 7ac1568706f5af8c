import { type McpAuthorizationRecord, McpAuthorizationStore } from './mcp-authorization.store.js';

interface Entry {
  readonly record: McpAuthorizationRecord;
  /** Epoch ms after which the entry is gone; undefined: never. */
  readonly expiresAt: number | undefined;
}

/**
 * The default {@link McpAuthorizationStore}: this process's memory, at most `maxRecords` records
 * (the least recently written goes first), each until its expiry. Records are copied in and out.
 *
 * @publicApi
 */
export class InMemoryAuthorizationStore extends McpAuthorizationStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxRecords = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  upsert(model: string, id: string, record: McpAuthorizationRecord, expiresInSeconds?: number): Promise<void> {
    const key = keyOf(model, id);
    this.entries.delete(key);
    if (this.entries.size >= this.maxRecords) this.entries.delete(this.entries.keys().next().value!);
    const expiresAt = expiresInSeconds === undefined ? undefined : this.now() + expiresInSeconds * 1000;
    this.entries.set(key, { record: structuredClone(record), expiresAt });
    return Promise.resolve();
  }

  find(model: string, id: string): Promise<McpAuthorizationRecord | undefined> {
    const record = this.live(keyOf(model, id));
    return Promise.resolve(record && structuredClone(record));
  }

  findByUid(model: string, uid: string): Promise<McpAuthorizationRecord | undefined> {
    return this.findBy(model, 'uid', uid);
  }

  findByUserCode(model: string, userCode: string): Promise<McpAuthorizationRecord | undefined> {
    return this.findBy(model, 'userCode', userCode);
  }

  consume(model: string, id: string): Promise<void> {
    const key = keyOf(model, id);
    const entry = this.entries.get(key);
    const record = this.live(key);
    if (entry && record) {
      this.entries.set(key, { ...entry, record: { ...record, consumed: Math.floor(this.now() / 1000) } });
    }
    return Promise.resolve();
  }

  destroy(model: string, id: string): Promise<void> {
    this.entries.delete(keyOf(model, id));
    return Promise.resolve();
  }

  revokeByGrantId(model: string, grantId: string): Promise<void> {
    const prefix = `${model}:`;
    for (const [key, { record }] of this.entries) {
      if (key.startsWith(prefix) && record['grantId'] === grantId) this.entries.delete(key);
    }
    return Promise.resolve();
  }

  private findBy(model: string, field: string, value: string): Promise<McpAuthorizationRecord | undefined> {
    const prefix = `${model}:`;
    for (const key of this.entries.keys()) {
      if (!key.startsWith(prefix)) continue;
      const record = this.live(key);
      if (record?.[field] === value) return Promise.resolve(structuredClone(record));
    }
    return Promise.resolve(undefined);
  }

  /** The entry's record, unless it expired (it is then dropped). */
  private live(key: string): McpAuthorizationRecord | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.record;
  }
}

function keyOf(model: string, id: string): string {
  return `${model}:${id}`;
}
