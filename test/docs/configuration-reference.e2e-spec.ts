import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/docs-configuration.mjs');

describe('docs/reference/configuration.md', () => {
  it('is what scripts/docs-configuration.mjs writes from the TSDoc in src/ (regenerate it when an option changes)', () => {
    const check = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 60_000);

  it('lists every option section of McpModule.forRoot and of the integration modules', () => {
    const page = readFileSync(join(ROOT, 'docs/reference/configuration.md'), 'utf8');
    const headings = [...page.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'McpModule.forRoot',
      'McpOAuth2Module.forRoot',
      'McpAuthorizationServerModule.forRoot',
      'McpRedisModule.forRoot',
      'McpTaskQueueModule.forRoot',
      'McpClientModule.forRoot',
      'McpClientModule: one server',
      'McpGatewayModule.forRoot',
      'McpGatewayModule: one upstream',
      'McpAppsModule.forRoot',
      'McpSkillsModule.forRoot',
      'McpOpenTelemetryModule.forRoot',
      'McpTestClient.start',
      'bootstrapStdio',
      'McpThrottlerModule',
    ]);
    for (const option of [
      '`mrtr.secrets`',
      '`tasks.leaseMs`',
      '`legacy.sessionTtlMs`',
      '`limits.maxTaskPayloadBytes`',
    ]) {
      expect(page).toContain(`| ${option} |`);
    }
  });
});
