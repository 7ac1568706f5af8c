import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The public API, entry by entry. Each entry's runtime exports are listed here, sorted: a value
 * exported by accident (or dropped) fails this spec before it reaches users; when the change is
 * meant, update the list, the API report (`npm run api`) and CHANGELOG.md together. The types an
 * entry exports are in its report under api/ (`npm run lint:api` compares them).
 *
 * Also: every symbol whose TSDoc says `@publicApi` is exported by the entry its folder belongs to
 * (`@mocapi/nestjs/oauth2` for src/oauth2, the root otherwise).
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const ENTRIES: Record<string, string> = {
  root: 'index.ts',
  oauth2: 'oauth2/index.ts',
  'authorization-server': 'authorization-server/index.ts',
  opentelemetry: 'opentelemetry/index.ts',
  throttler: 'throttler/index.ts',
  redis: 'redis/index.ts',
  bullmq: 'bullmq/index.ts',
  terminus: 'terminus/index.ts',
  apps: 'apps/index.ts',
  skills: 'skills/index.ts',
  testing: 'testing/index.ts',
  client: 'client/index.ts',
  gateway: 'gateway/index.ts',
};

/** The runtime exports of each entry (`Object.keys(await import(entry))`), sorted. */
const RUNTIME_EXPORTS: Record<string, readonly string[]> = {
  root: [
    'ElicitationContext',
    'InputBatchBuilder',
    'InputRequiredException',
    'McpArgs',
    'McpAuditSink',
    'McpCallAbortedError',
    'McpClientLogger',
    'McpCtx',
    'McpError',
    'McpErrorCode',
    'McpEventBus',
    'McpExecutionContext',
    'McpFlowStore',
    'McpHttpAuthenticator',
    'McpHttpChallenge',
    'McpModule',
    'McpObserver',
    'McpPrincipalSource',
    'McpProgressReporter',
    'McpPrompt',
    'McpProperty',
    'McpRegistrar',
    'McpResource',
    'McpResourceTemplate',
    'McpServerRef',
    'McpServers',
    'McpSessionBackplane',
    'McpStderrLogger',
    'McpStdioTransport',
    'McpTaskContext',
    'McpTaskExecutor',
    'McpTaskQuotaExceededException',
    'McpTaskStore',
    'McpTool',
    'PlannedInput',
    'RequestedSchemaBuilder',
    'TaskAbortedError',
    'bootstrapStdio',
    'clientRendersApps',
    'isCallAborted',
    'isInputRequired',
  ],
  oauth2: ['MCP_OAUTH2_STRATEGY', 'McpOAuth2Module', 'McpScopes'],
  'authorization-server': ['InMemoryAuthorizationStore', 'McpAuthorizationServerModule', 'McpAuthorizationStore'],
  opentelemetry: ['McpOpenTelemetryModule'],
  throttler: [
    'MCP_RATE_LIMITED',
    'MCP_THROTTLER_DEFAULTS',
    'McpRateLimitedException',
    'McpThrottlerGuard',
    'McpThrottlerModule',
  ],
  redis: [
    'MCP_UNAVAILABLE',
    'McpRedisModule',
    'McpUnavailableException',
    'RedisAuthorizationStore',
    'RedisThrottlerStorage',
  ],
  bullmq: ['McpTaskQueueFullException', 'McpTaskQueueModule', 'McpTaskQueueUnavailableException'],
  terminus: ['McpHealthIndicator', 'McpHealthModule'],
  apps: [
    'DEFAULT_MAX_BUNDLE_BYTES',
    'MCP_APP_MIME_TYPE',
    'MCP_UI_EXTENSION',
    'McpAppResource',
    'McpAppsModule',
    'clientRendersApps',
  ],
  skills: [
    'MCP_SKILLS_EXTENSION',
    'McpSkill',
    'McpSkillCatalog',
    'McpSkillDefinitionError',
    'McpSkillsModule',
    'SKILL_LIMITS',
  ],
  testing: ['McpCallRound', 'McpTestClient', 'McpTestError'],
  client: [
    'InjectMcpClient',
    'McpClientConnection',
    'McpClientError',
    'McpClientModule',
    'McpClientRegistry',
    'getMcpClientToken',
  ],
  gateway: ['McpGateway', 'McpGatewayModule', 'McpUpstreamError', 'McpUpstreamUnavailableException'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@publicApi` symbols, with the entry that must export them. */
function taggedSymbols(): Array<{ name: string; entry: string; file: string }> {
  const found: Array<{ name: string; entry: string; file: string }> = [];
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file);
    const entry = Object.keys(ENTRIES).find((name) => rel.startsWith(`${name}/`)) ?? 'root';
    const text = readFileSync(file, 'utf8');
    const tagged =
      /@publicApi\s*\n\s*\*\/\s*\n(?:@\w+\([^)]*\)\s*\n)*export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|const|function|enum)\s+(\w+)/g;
    for (const match of text.matchAll(tagged)) found.push({ name: match[1]!, entry, file: rel });
  }
  return found;
}

/** The names an entry exports, read from its source (`export { a, type B } from`, `export *`, declarations). */
function exportedNames(entryFile: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(entryFile)) return names;
  seen.add(entryFile);
  const text = readFileSync(entryFile, 'utf8');
  for (const [, list] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)!
        .trim();
      if (name) names.add(name);
    }
  }
  for (const [, from] of text.matchAll(/export\s+(?:type\s+)?\*\s+from\s+'([^']+)'/g)) {
    const target = join(entryFile, '..', from!.replace(/\.js$/, '.ts'));
    for (const name of exportedNames(target, seen)) names.add(name);
  }
  for (const [, name] of text.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|const|function|enum)\s+(\w+)/g,
  ))
    names.add(name!);
  return names;
}

describe('the public API', () => {
  it.each(Object.keys(ENTRIES))('the %s entry exports exactly its listed values', async (entry) => {
    const module = (await import(join(SRC, ENTRIES[entry]!))) as Record<string, unknown>;
    expect(Object.keys(module).sort()).toEqual([...RUNTIME_EXPORTS[entry]!].sort());
  });

  it.each(Object.keys(ENTRIES))('every value the %s entry exports is defined at run time', async (entry) => {
    const module = (await import(join(SRC, ENTRIES[entry]!))) as Record<string, unknown>;
    const undefinedValues = Object.entries(module)
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    expect(undefinedValues).toEqual([]);
  });

  const symbols = taggedSymbols();

  it('finds the tagged symbols', () => {
    expect(symbols.length).toBeGreaterThan(60);
  });

  it.each(Object.keys(ENTRIES))('the %s entry exports every @publicApi symbol of its folder', (entry) => {
    const exported = exportedNames(join(SRC, ENTRIES[entry]!));
    const missing = symbols
      .filter((s) => s.entry === entry && !exported.has(s.name))
      .map((s) => `${s.name} (${s.file})`);
    expect(missing).toEqual([]);
  });

  it('keeps the internals out of the root entry, types included (the server builds them; users never name them)', () => {
    const exported = exportedNames(join(SRC, ENTRIES.root!));
    const internals = [
      'McpDispatcher',
      'RequestStateCodec',
      'AesGcmRequestStateCodec',
      'McpClock',
      'SystemClock',
      'McpStdioConnectionOptions',
      'ResolvedMcpOptions',
      'McpToolRegistry',
      'McpPromptRegistry',
      'McpResourceRegistry',
      'McpRegistry',
      'McpResourceUpdates',
      'McpServerExtensions',
      'McpHealthProbe',
      'McpAccessPolicy',
    ];
    expect(internals.filter((name) => exported.has(name))).toEqual([]);
  });

  it("names the types only a seam's implementer or an observer reads under that seam, not at the root", () => {
    const exported = exportedNames(join(SRC, ENTRIES.root!));
    // Each now reads `McpTaskStore.TaskRecord`, `McpRequestObserver.Trace`, ... (or is written inline).
    const grouped = [
      'McpTaskRecord',
      'McpTaskStatus',
      'McpTaskError',
      'McpTaskQuota',
      'McpTaskCallerCount',
      'McpTaskQuotaLimit',
      'SessionBackplaneHandlers',
      'SharedSessionState',
      'McpEvent',
      'McpEventListener',
      'McpRequestTrace',
      'McpRequestOutcome',
      'TracedReplay',
      'McpSessionEnd',
      'FieldOptions',
      'StringFieldOptions',
      'StringFieldFormat',
      'NumberFieldOptions',
      'BooleanFieldOptions',
      'NextRequestedSchemaBuilder',
      'McpCallAbortReason',
      'McpPrincipalRequest',
      'McpTaskSupport',
      'McpTaskCreation',
      'JsonRpcId',
      'JsonRpcNotification',
    ];
    expect(grouped.filter((name) => exported.has(name))).toEqual([]);
  });
});
