/** The Nest CLI's Jest set-up for a CommonJS app: ts-jest compiles (and type-checks) each file. */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: 'src',
  testRegex: '.*\\.spec\\.ts$',
  moduleFileExtensions: ['js', 'json', 'ts'],
};
