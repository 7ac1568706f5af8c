// Every entry point of @mocapi/nestjs through import: each resolves into dist/esm, and no CommonJS
// file of the package got loaded along the way (one copy of McpModule, McpError, ... for the app,
// its tests and @mocapi/nestjs/testing).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = await import('@mocapi/nestjs');
const testing = await import('@mocapi/nestjs/testing');
const oauth2 = await import('@mocapi/nestjs/oauth2');
const apps = await import('@mocapi/nestjs/apps');
// Their peers ioredis and bullmq load too; nothing here connects to a Redis server.
const redis = await import('@mocapi/nestjs/redis');
const bullmq = await import('@mocapi/nestjs/bullmq');
// Its peer @modelcontextprotocol/client loads too; nothing here connects to a server.
const client = await import('@mocapi/nestjs/client');
const gateway = await import('@mocapi/nestjs/gateway');

for (const name of ['McpModule', 'McpTool', 'ElicitationContext', 'McpError'])
  assert.equal(typeof root[name], 'function', `@mocapi/nestjs exports ${name}`);
for (const name of ['McpTestClient', 'McpCallRound', 'McpTestError'])
  assert.equal(typeof testing[name], 'function', `@mocapi/nestjs/testing exports ${name}`);
for (const name of ['McpOAuth2Module', 'McpScopes'])
  assert.equal(typeof oauth2[name], 'function', `@mocapi/nestjs/oauth2 exports ${name}`);
for (const name of ['McpAppsModule', 'McpAppResource', 'clientRendersApps'])
  assert.equal(typeof apps[name], 'function', `@mocapi/nestjs/apps exports ${name}`);
for (const name of ['McpRedisModule', 'RedisThrottlerStorage', 'RedisAuthorizationStore', 'McpUnavailableException'])
  assert.equal(typeof redis[name], 'function', `@mocapi/nestjs/redis exports ${name}`);
for (const name of ['McpTaskQueueModule', 'McpTaskQueueFullException'])
  assert.equal(typeof bullmq[name], 'function', `@mocapi/nestjs/bullmq exports ${name}`);
for (const name of ['McpClientModule', 'McpClientRegistry', 'McpClientConnection', 'McpClientError', 'InjectMcpClient'])
  assert.equal(typeof client[name], 'function', `@mocapi/nestjs/client exports ${name}`);
for (const name of ['McpGatewayModule', 'McpGateway', 'McpUpstreamError', 'McpUpstreamUnavailableException'])
  assert.equal(typeof gateway[name], 'function', `@mocapi/nestjs/gateway exports ${name}`);
// One McpError for every entry: the errors of /redis and /bullmq are the root entry's.
assert.ok(new redis.McpUnavailableException() instanceof root.McpError, '/redis errors are McpErrors');
assert.ok(new bullmq.McpTaskQueueFullException(1) instanceof root.McpError, '/bullmq errors are McpErrors');

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@mocapi/nestjs/package.json'));
const esmDir = join(packageDir, 'dist', 'esm') + sep;
for (const entry of [
  '@mocapi/nestjs',
  '@mocapi/nestjs/testing',
  '@mocapi/nestjs/oauth2',
  '@mocapi/nestjs/apps',
  '@mocapi/nestjs/redis',
  '@mocapi/nestjs/bullmq',
  '@mocapi/nestjs/client',
  '@mocapi/nestjs/gateway',
]) {
  const file = fileURLToPath(import.meta.resolve(entry));
  assert.ok(file.startsWith(esmDir), `${entry} resolves to ${file}`);
}
const cjsLoaded = Object.keys(require.cache).filter((file) => file.startsWith(packageDir + sep));
assert.deepEqual(cjsLoaded, [], 'CommonJS files of the package loaded by an ESM app');
console.log(
  `import: @mocapi/nestjs, /testing, /oauth2, /apps, /redis, /bullmq, /client and /gateway resolve into dist/esm; no CommonJS file of the package loaded (Node ${process.version})`,
);
