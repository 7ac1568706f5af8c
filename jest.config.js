/** Jest in native ESM mode; TypeScript is stripped by SWC (types are checked by `npm run typecheck`). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // @nestjs/throttler is CommonJS and requires the ESM-only @nestjs/common and @nestjs/core, which
  // Node >= 20.19 allows (require(esm)) but Jest's module runtime does not before Node 24.9: SWC
  // gives those two a CommonJS build when (and only when) they are required from CommonJS.
  transform: { '^.+\\.ts$': ['@swc/jest'], '/node_modules/@nestjs/(common|core)/.+\\.js$': ['@swc/jest'] },
  transformIgnorePatterns: ['/node_modules/(?!@nestjs/(common|core)/)'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  setupFiles: ['reflect-metadata', '<rootDir>/test/support/preload-nest.ts'],
  testTimeout: 30000,
};
