// The layer stack of src/ (ARCHITECTURE.md, "Layers"), checked by `npm run lint:layers` over src/,
// bench/ and test/: a file of src/ imports only from its own folder and from the folders listed
// before its own, never from one listed after it. The integrations (the subpath entries) sit on
// top and do not import each other. Specs are left out of the layers: a test may assemble any
// layer. No import cycle exists anywhere in src/, bench/ or test/; src/ never imports a test, a
// benchmark or the sample; the tests do not import the benchmarks; nothing imports a spec file.
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
  'client',
  'gateway',
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
      comment: 'No import cycle in src/, bench/ or test/, type-only imports included',
      severity: 'error',
      from: { path: '^(src|bench|test)/' },
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
      // The gateway is built on the client entry (its connections), and on nothing else.
      to: {
        path: either(INTEGRATIONS.filter((other) => other !== name && !(name === 'gateway' && other === 'client'))),
      },
    })),
    {
      name: 'not-to-tests',
      comment: 'Source never imports tests, benchmarks or the sample',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench|sample)/' },
    },
    {
      name: 'tests-not-to-bench',
      comment: 'A test does not import a benchmark (a benchmark may reuse the test support)',
      severity: 'error',
      from: { path: '^test/' },
      to: { path: '^bench/' },
    },
    {
      name: 'not-to-specs',
      comment: 'Nothing imports a spec file: what two specs share goes into a module of its own',
      severity: 'error',
      from: {},
      to: { path: '\\.(e2e-)?spec\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
