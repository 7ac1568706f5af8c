import { pingProbe } from './mcp-health-probe.js';

describe('pingProbe', () => {
  it('is up when the ping resolves', async () => {
    await expect(pingProbe('redis', async () => 'PONG').check()).resolves.toEqual({ up: true });
  });

  it("is down with the error's message when the ping fails, thrown or rejected", async () => {
    await expect(pingProbe('redis', () => Promise.reject(new Error('connection closed'))).check()).resolves.toEqual({
      up: false,
      reason: 'connection closed',
    });
    const throwing = pingProbe('queue', () => {
      throw new Error('not connected');
    });
    await expect(throwing.check()).resolves.toEqual({ up: false, reason: 'not connected' });
  });

  it('is down when the ping does not settle within its bound, and a late rejection goes nowhere', async () => {
    let reject!: (error: Error) => void;
    const probe = pingProbe('queue', () => new Promise((_, no) => (reject = no)), 20);
    await expect(probe.check()).resolves.toEqual({ up: false, reason: 'no answer within 20 ms' });
    reject(new Error('too late')); // an unhandled rejection here would fail the run
    await new Promise((resolve) => setImmediate(resolve));
  });
});
