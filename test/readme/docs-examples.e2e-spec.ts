import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const OUT = join(ROOT, 'test/readme/.generated/docs');

/** Every ```ts block of every page under docs/, by page and position. */
function examples(): Array<{ file: string; code: string }> {
  return readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .flatMap((page) =>
      [...readFileSync(join(DOCS, page), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((match, i) => ({
        file: `${page.replace(/\.md$/, '')}-${i + 1}.ts`,
        code: match[1]!,
      })),
    );
}

describe('the examples under docs/', () => {
  it('each compiles as written, against the package entries (tsc, strict)', () => {
    const found = examples();
    expect(found.length).toBeGreaterThan(0);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const { file, code } of found) writeFileSync(join(OUT, file), code);
    // The package name resolves to this repository's entries, as it would to the installed build.
    writeFileSync(
      join(OUT, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../../tsconfig.json',
        compilerOptions: {
          noEmit: true,
          rootDir: '../../../..',
          types: ['node'],
          paths: {
            '@mocapi/nestjs': ['../../../../src/index.ts'],
            '@mocapi/nestjs/*': ['../../../../src/*/index.ts'],
          },
        },
        include: ['*.ts', '../../../../src/**/*.d.ts'],
        exclude: [],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', OUT], {
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});
