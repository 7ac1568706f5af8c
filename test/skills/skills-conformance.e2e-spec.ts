import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { skillsAppModule, skillsFolder, WALK_IN_FILES } from './skills-app.fixture.js';

/**
 * The conformance suite's Skills scenarios (SEP-2640), which the shared fixture of
 * test/conformance does not serve: against the sample's skill and a second one, with directoryRead.
 */
const SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];
const CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
/** The Node 22 that test/conformance runs the suite with (a plain script, hence the untyped import). */
const FETCH_NODE = '../../scripts/fetch-node.mjs';
type EnsureNode = (major: number, options: { log: (line: string) => void }) => Promise<{ node: string }>;

/** Runs one scenario with the suite's CLI (it needs Node >= 22); resolves to its output. */
async function runScenario(url: string, scenario: string): Promise<{ code: number | null; output: string }> {
  const { ensureNode } = (await import(FETCH_NODE)) as { ensureNode: EnsureNode };
  const { node } = await ensureNode(22, { log: () => undefined });
  return new Promise((resolve, reject) => {
    const child = spawn(node, [CLI, 'server', '--url', url, '--scenario', scenario], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.each(ADAPTERS)('the conformance suite’s sep-2640 scenarios, on %s', (adapter) => {
  let server: RunningApp;
  let folder: Awaited<ReturnType<typeof skillsFolder>>;
  beforeAll(async () => {
    folder = await skillsFolder({ 'seat-a-walk-in': WALK_IN_FILES });
    const module = skillsAppModule({ skills: { directories: ['sample/skills', folder.root], directoryRead: true } });
    server = await startApp(module, adapter);
  });
  afterAll(async () => {
    await server.close();
    await folder.remove();
  });

  it.each(SCENARIOS)(
    '%s: every check passes, no warning',
    async (scenario) => {
      const { code, output } = await runScenario(server.url, scenario);
      const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(output);
      expect(summary).not.toBeNull();
      const [, passed, total, failed, warnings] = summary!.map(Number);
      expect({ failed, warnings, passed: passed === total, code }).toEqual({
        failed: 0,
        warnings: 0,
        passed: true,
        code: 0,
      });
      expect(total).toBeGreaterThan(4);
    },
    60_000,
  );
});
