// Every entry point of @mocapi/nestjs through require(): each resolves into dist/cjs, and every file
// of the package that got loaded is a CommonJS one (one copy of McpModule, McpError, ... for the
// app, its tests and @mocapi/nestjs/testing). `/oauth2` requires jose 6, an ES module: Node's
// require(esm) loads it (Node ^20.19 / >=22.12).
const assert = require('node:assert/strict');
const { dirname, join, sep } = require('node:path');

const root = require('@mocapi/nestjs');
const testing = require('@mocapi/nestjs/testing');
const oauth2 = require('@mocapi/nestjs/oauth2');
const apps = require('@mocapi/nestjs/apps');
// oidc-provider and openid-client are ES modules too, loaded the same way.
const authorizationServer = require('@mocapi/nestjs/authorization-server');
// Their peers ioredis and bullmq are CommonJS; nothing here connects to a Redis server.
const redis = require('@mocapi/nestjs/redis');
const bullmq = require('@mocapi/nestjs/bullmq');
// Its peer @modelcontextprotocol/client ships CommonJS too; nothing here connects to a server.
const client = require('@mocapi/nestjs/client');
const gateway = require('@mocapi/nestjs/gateway');

for (const name of ['McpModule', 'McpTool', 'ElicitationContext', 'McpError'])
  assert.equal(typeof root[name], 'function', `@mocapi/nestjs exports ${name}`);
for (const name of ['McpTestClient', 'McpCallRound', 'McpTestError'])
  assert.equal(typeof testing[name], 'function', `@mocapi/nestjs/testing exports ${name}`);
for (const name of ['McpOAuth2Module', 'McpScopes'])
  assert.equal(typeof oauth2[name], 'function', `@mocapi/nestjs/oauth2 exports ${name}`);
for (const name of ['McpAppsModule', 'McpAppResource', 'clientRendersApps'])
  assert.equal(typeof apps[name], 'function', `@mocapi/nestjs/apps exports ${name}`);
for (const name of ['McpAuthorizationServerModule', 'McpAuthorizationStore', 'InMemoryAuthorizationStore'])
  assert.equal(typeof authorizationServer[name], 'function', `@mocapi/nestjs/authorization-server exports ${name}`);
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

const packageDir = dirname(require.resolve('@mocapi/nestjs/package.json'));
const cjsDir = join(packageDir, 'dist', 'cjs') + sep;
for (const entry of [
  '@mocapi/nestjs',
  '@mocapi/nestjs/testing',
  '@mocapi/nestjs/oauth2',
  '@mocapi/nestjs/apps',
  '@mocapi/nestjs/authorization-server',
  '@mocapi/nestjs/redis',
  '@mocapi/nestjs/bullmq',
  '@mocapi/nestjs/client',
  '@mocapi/nestjs/gateway',
]) {
  assert.ok(require.resolve(entry).startsWith(cjsDir), `${entry} resolves to ${require.resolve(entry)}`);
}
const loaded = Object.keys(require.cache).filter((file) => file.startsWith(packageDir + sep));
assert.deepEqual(
  loaded.filter((file) => !file.startsWith(cjsDir)),
  [],
  'files of the package loaded from outside dist/cjs',
);
console.log(
  `require(): @mocapi/nestjs, /testing, /oauth2, /apps, /authorization-server, /redis, /bullmq, /client and /gateway load ${loaded.length} files, all from dist/cjs (Node ${process.version})`,
);
