import { McpClock, SystemClock } from './mcp-clock.js';

describe('SystemClock', () => {
  it('is an McpClock reading the wall clock', () => {
    const clock = new SystemClock();
    expect(clock).toBeInstanceOf(McpClock);
    const before = Date.now();
    const now = clock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
