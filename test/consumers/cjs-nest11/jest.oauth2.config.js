/**
 * @mocapi/nestjs/oauth2 under CommonJS Jest. jose 6 (its peer) is an ES module: Node's require()
 * loads it (require(esm)), Jest's CommonJS runtime does not ("Unexpected token 'export'"). So
 * ts-jest compiles jose too: JavaScript through ts-jest (allowJs) and node_modules/jose not ignored.
 */
module.exports = {
  testEnvironment: 'node',
  rootDir: '.',
  roots: ['<rootDir>/src'],
  testRegex: '.*\\.oauth2-spec\\.ts$',
  moduleFileExtensions: ['js', 'json', 'ts'],
  transform: { '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.oauth2.json' }] },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
};
