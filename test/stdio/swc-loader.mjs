// Module hooks (node:module register) that transpile .ts files with @swc/core on the fly and map
// the `.js` suffix of relative imports (NodeNext style) back to the `.ts` file when one exists.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import swc from '@swc/core';

// Mirrors the repository's .swcrc, which is what Jest (@swc/jest) uses.
const SWC_OPTIONS = {
  swcrc: false,
  sourceMaps: 'inline',
  module: { type: 'es6' },
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    keepClassNames: true,
  },
};

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (
    parent?.startsWith('file:') &&
    parent.endsWith('.ts') &&
    /^\.{1,2}\//.test(specifier) &&
    specifier.endsWith('.js')
  ) {
    const candidate = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (existsSync(fileURLToPath(candidate))) return { url: candidate.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const filename = fileURLToPath(url);
  const { code } = await swc.transform(await readFile(filename, 'utf8'), { ...SWC_OPTIONS, filename });
  return { format: 'module', source: code, shortCircuit: true };
}
