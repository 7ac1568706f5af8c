import { resolveMcpOptions } from '../mcp.options.js';
import { type McpClock, SystemClock } from '../core/mcp-clock.js';
import type { McpEventBus } from '../events/mcp-event-bus.js';
import { CallCancellation } from './call-cancellation.js';
import { LegacySessions } from './legacy-sessions.js';
import { LocalSessionBackplane } from './local-session-backplane.js';

class KeepingBackplane extends LocalSessionBackplane {
  override get keepsState(): boolean {
    return true;
  }
}

function sessions(
  maxSessions: number,
  maxSessionsPerCaller: number,
  backplane = new LocalSessionBackplane(),
  clock: McpClock = new SystemClock(),
) {
  const options = resolveMcpOptions({
    name: 't',
    version: '1',
    legacy: { maxSessions },
    limits: { maxSessionsPerCaller },
  });
  // The bus is only read at module init, which these tests do not run.
  return new LegacySessions(options.legacy, options.limits, clock, {} as McpEventBus, backplane);
}

const busy = (s: LegacySessions, id: string, caller: string) =>
  s.state(id, caller).calls.set('call', new CallCancellation());

describe('LegacySessions bounds', () => {
  it('when full, the oldest idle state of the caller holding the most goes, and its id is refused', () => {
    const s = sessions(4, 10);
    s.state('victim', 'a');
    s.state('b1', 'b');
    s.state('b2', 'b');
    s.state('b3', 'b');
    s.state('c1', 'c');
    expect(s.size).toBe(4);
    expect([s.isEnded('victim'), s.isEnded('b1'), s.isEnded('b2')]).toEqual([false, true, false]);
  });

  it('a caller at its quota loses its own oldest idle state, whatever room is left', () => {
    const s = sessions(100, 2);
    s.state('other', 'o');
    s.state('g1', 'g');
    s.state('g2', 'g');
    s.state('g1', 'g'); // g1 used again: g2 is now the oldest
    s.state('g3', 'g');
    expect([s.isEnded('g2'), s.isEnded('g1'), s.isEnded('other')]).toEqual([true, false, false]);
    expect(s.size).toBe(3);
  });

  it('busy states are never dropped: a caller whose sessions are all busy takes from the next one', () => {
    const s = sessions(3, 10);
    busy(s, 'b1', 'b');
    busy(s, 'b2', 'b');
    s.state('a1', 'a');
    s.state('c1', 'c');
    expect([s.isEnded('b1'), s.isEnded('b2'), s.isEnded('a1')]).toEqual([false, false, true]);
  });

  it('with everything busy the node goes over legacy.maxSessions rather than drop work in flight', () => {
    const s = sessions(2, 10);
    busy(s, 'x', 'a');
    busy(s, 'y', 'b');
    s.state('z', 'c');
    expect(s.size).toBe(3);
    expect([s.isEnded('x'), s.isEnded('y')]).toEqual([false, false]);
  });

  it('a caller at its quota with every session busy is refused (429, data.limit) and nothing is dropped', () => {
    const s = sessions(100, 2);
    busy(s, 'g1', 'g');
    busy(s, 'g2', 'g');
    expect(() => s.state('g3', 'g')).toThrow(
      expect.objectContaining({ httpStatus: 429, data: { limit: 'maxSessionsPerCaller', max: 2 } }),
    );
    expect([s.size, s.isEnded('g1'), s.isEnded('g3')]).toEqual([2, false, false]);
  });

  it('a dropped session stays refused after more evictions than its refusal is remembered for', async () => {
    let now = 1_000;
    const clock = { now: () => now } as McpClock;
    // legacy.maxSessions 2: 20 refused ids are remembered.
    const s = sessions(2, 10, new LocalSessionBackplane(), clock);
    const victimIssuedAt = now;
    await s.open('victim', 'v', victimIssuedAt);
    for (let i = 0; i < 50; i++) {
      now++;
      await s.open(`churn-${i}`, `c${i}`, now);
    }
    // Its own refusal is forgotten by now, yet it must not come back as a blank state.
    expect(s.isEnded('victim')).toBe(false);
    expect(await s.open('victim', 'v', victimIssuedAt)).toBeUndefined();
    // A session issued after the refusals that were forgotten is served, and so is a live one.
    expect(await s.open('fresh', 'f', now)).toBeDefined();
    expect(await s.open('churn-49', 'c49', now)).toBeDefined();
  });

  it('with a backplane that keeps the state, a state dropped for room is not refused (it reloads)', () => {
    const s = sessions(2, 10, new KeepingBackplane());
    s.state('a1', 'a');
    s.state('b1', 'b');
    s.state('c1', 'c');
    expect(s.size).toBe(2);
    expect(s.isEnded('a1')).toBe(false);
  });
});
