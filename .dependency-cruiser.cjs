// The layer stack of src/ (ARCHITECTURE.md, "Layers"), checked by `npm run lint`: a file imports only
// from its own folder and from the folders listed before its own, never from one listed after it,
// and no import cycle exists. The integrations (the subpath entries) sit on top and do not import
// each other. Specs are left out: a test may assemble any layer.
const LAYERS = [
  'protocol',
  'core',
  'schema',
  'decorators',
  'mrtr',
  'task-store',
  'events',
  'telemetry',
  'discovery',
  'calls',
  'tasks',
  'methods',
  'dispatch',
  'legacy',
  'transport/http',
  'transport/stdio',
  '', // the module itself: src/*.ts
];
const INTEGRATIONS = [
  'authorization-server',
  'apps',
  'bullmq',
  'oauth2',
  'opentelemetry',
  'redis',
  'skills',
  'terminus',
  'testing',
  'throttler',
];

const folder = (name) => (name === '' ? '^src/[^/]+\\.ts$' : `^src/${name}/`);
const label = (name) => (name === '' ? 'the module (src/*.ts)' : name);
const either = (names) => names.map(folder).join('|');

const upward = LAYERS.slice(0, -1).map((name, index) => ({
  name: `layer-${name.replace('/', '-') || 'module'}`,
  comment: `${label(name)} may not import a layer above it (${LAYERS.slice(index + 1)
    .map(label)
    .join(', ')}) or an integration`,
  severity: 'error',
  from: { path: folder(name), pathNot: '\\.spec\\.ts$' },
  to: { path: either([...LAYERS.slice(index + 1), ...INTEGRATIONS]) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...upward,
    {
      name: 'module-not-integrations',
      comment: 'The module does not import an integration: an application opts into each',
      severity: 'error',
      from: { path: folder(''), pathNot: '\\.spec\\.ts$' },
      to: { path: either(INTEGRATIONS) },
    },
    ...INTEGRATIONS.map((name) => ({
      name: `integration-${name}-alone`,
      comment: `${name} does not import another integration`,
      severity: 'error',
      from: { path: folder(name), pathNot: '\\.spec\\.ts$' },
      to: { path: either(INTEGRATIONS.filter((other) => other !== name)) },
    })),
    {
      name: 'not-to-tests',
      comment: 'Source never imports tests, benchmarks or the sample',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench|sample)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
