import { ADAPTERS } from '../support/start-app.js';
import { HostileProbe, useHostileApp } from '../hostile/hostile.fixtures.js';

// tools/call (src/methods/tools.methods.ts): a tool's timeout. The app is the hostile-input one,
// whose `slow` tool waits 5 s unless aborted and has a 200 ms timeout.
describe.each(ADAPTERS)('tools/call past the tool timeout, on %s', (adapter) => {
  // Nothing a client sends may produce an ERROR log line (or a stack in the log): checked after each test.
  const hostile = useHostileApp(adapter);
  const { call } = hostile;

  it('a tool past its timeout answers isError and its signal is aborted', async () => {
    const probe = hostile.server.app.get(HostileProbe);
    const r = await call('slow', { arguments: {} });
    expect(r.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'The tool slow did not finish within 200 ms and was stopped.' }],
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(probe.aborted).toContain(true);
  });
});
