import { Logger } from '@nestjs/common';
import { resolveMcpOptions } from '../mcp.options.js';
import { AesGcmRequestStateCodec } from '../mrtr/aes-gcm-request-state-codec.js';
import { AesGcmTokenSealer } from '../core/aes-gcm-token-sealer.js';
import { McpClock } from '../core/mcp-clock.js';
import { LegacySessionCodec } from './legacy-session-codec.js';

class FixedClock extends McpClock {
  constructor(public current = 1_800_000_000_000) {
    super();
  }
  now(): number {
    return this.current;
  }
}

const SECRET = 'session-codec-secret-0123456789-abcdefgh';
const quiet = { warn: () => undefined } as unknown as Logger;

function setUp(secrets = [SECRET], clock = new FixedClock()) {
  const options = resolveMcpOptions({ name: 't', version: '1', mrtr: { secrets }, legacy: { sessionTtlMs: 60_000 } });
  const sealer = new AesGcmTokenSealer(secrets, quiet);
  return {
    clock,
    sessions: new LegacySessionCodec(sealer, clock, options.legacy),
    states: new AesGcmRequestStateCodec(options.mrtr, clock, quiet, sealer),
  };
}

const CLAIMS = {
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: {} },
  clientInfo: { name: 'c', version: '1' },
  principal: 'alice',
};

describe('LegacySessionCodec', () => {
  it('issues visible-ASCII ids that any codec with the same secret opens', () => {
    const { token, claims } = setUp().sessions.issue(CLAIMS);
    expect(token).toMatch(/^[\x21-\x7e]+$/);
    expect(setUp().sessions.open(token)).toEqual(claims);
    expect(claims).toMatchObject({
      ...CLAIMS,
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      issuedAt: 1_800_000_000_000,
    });
  });

  it('gives every session its own id', () => {
    const { sessions } = setUp();
    expect(sessions.issue(CLAIMS).claims.id).not.toBe(sessions.issue(CLAIMS).claims.id);
  });

  it('refuses an expired, tampered, foreign or truncated id', () => {
    const { sessions, clock } = setUp();
    const { token } = sessions.issue(CLAIMS);
    const flipped = token.slice(0, 30) + (token[30] === 'a' ? 'b' : 'a') + token.slice(31);
    expect(sessions.open(flipped)).toBeUndefined();
    expect(sessions.open(token.slice(0, -2))).toBeUndefined();
    expect(setUp(['another-secret-0123456789-abcdefghijklmn']).sessions.open(token)).toBeUndefined();
    clock.current += 60_001;
    expect(sessions.open(token)).toBeUndefined();
  });

  it('never takes a requestState for a session id, nor the reverse (a purpose in the AAD)', () => {
    const { sessions, states, clock } = setUp();
    const state = states.seal({
      method: 'tools/call',
      target: 't',
      argsDigest: 'd',
      principal: null,
      flowId: 'f',
      ledger: [],
      issuedAt: clock.now(),
      startedAt: clock.now(),
    });
    expect(sessions.open(state)).toBeUndefined();
    const { token } = sessions.issue(CLAIMS);
    expect(() => states.open(token)).toThrow(expect.objectContaining({ reason: 'authentication_failed' }));
  });
});
