/** One stored record of the authorization server: plain JSON. */
export type McpAuthorizationRecord = Record<string, unknown>;

/**
 * Where the authorization server keeps what a sign-in needs between requests: sign-ins in
 * progress, authorization codes, tokens, grants, sessions, dynamically registered clients and the
 * upstream sign-ins. `model` names the kind (`AuthorizationCode`, `Grant`, `Session`, …), `id` the
 * record within it. An abstract class, so DI can swap it: the default keeps records in this
 * process's memory (bounded); a shared store lets any node finish a sign-in another node started.
 *
 * @publicApi
 */
export abstract class McpAuthorizationStore {
  /** Stores (or replaces) a record, forgotten after `expiresInSeconds` when given. */
  abstract upsert(model: string, id: string, record: McpAuthorizationRecord, expiresInSeconds?: number): Promise<void>;
  /** The record, or undefined when unknown or expired. */
  abstract find(model: string, id: string): Promise<McpAuthorizationRecord | undefined>;
  /** The record whose `uid` field is `uid` (sessions are looked up so). */
  abstract findByUid(model: string, uid: string): Promise<McpAuthorizationRecord | undefined>;
  /** The record whose `userCode` field is `userCode` (device flow; unused unless enabled). */
  abstract findByUserCode(model: string, userCode: string): Promise<McpAuthorizationRecord | undefined>;
  /** Marks the record consumed (`consumed`: epoch seconds), so a code cannot be used twice. */
  abstract consume(model: string, id: string): Promise<void>;
  /** Forgets the record. */
  abstract destroy(model: string, id: string): Promise<void>;
  /** Forgets every record of `model` issued under the grant `grantId` (its tokens and codes). */
  abstract revokeByGrantId(model: string, grantId: string): Promise<void>;
}
