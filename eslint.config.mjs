// ESLint (flat config) with typescript-eslint's recommended rules, formatting left to Prettier,
// as the NestJS starter sets it up.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      '.tools/',
      'bench/out/',
      'test/conformance/results/',
      'test/readme/.generated/',
      'test/consumers/**/node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Decorated DI classes and JSON-RPC shapes need these; the compiler (strict) covers the rest.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // `{}` is the neutral default of the schema builder's option generics.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends', allowObjectTypes: 'always' },
      ],
    },
  },
  {
    // Other libraries through their public entries only (issue 24): a deep path is an internal that
    // a minor release may move, and class-transformer's deep paths can load a second metadata storage.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(@nestjs/[^/]+|bullmq|class-transformer|class-validator|@nestjs/throttler|ioredis|jose|passport)/.+',
              message: "Import the library's public entry, not one of its files.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and benchmarks poke at wire shapes with `any` on purpose.
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
