import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'test/readme/.generated/docs');
/** Blocks marked ```ts fragment are not compiled; they must stay few. */
const MAX_FRAGMENTS = 3;
/**
 * A block named `// src/<name>.e2e-spec.ts` is a test a page shows: it is written as
 * `<name>.docs-spec.ts` and run by Jest here, against this repository's source.
 */
const RUNNABLE = '.docs-spec.ts';

interface Block {
  readonly page: string;
  /** 1-based line of the block's first code line in the page. */
  readonly line: number;
  readonly code: string;
  readonly fragment: boolean;
}

/** README.md and every page under docs/, as paths relative to the repository. */
function pages(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [],
    );
  return ['README.md', ...walk('docs').sort()];
}

/** Every ```ts / ```typescript block of a page (indented ones in lists included), with its line. */
function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript)(?:\s+(.*))?$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = i + 1;
    while (++i < lines.length && !/^\s*```\s*$/.test(lines[i]!));
    const code = lines
      .slice(start, i)
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    blocks.push({ page, line: start + 1, code, fragment: /\bfragment\b/.test(open[3] ?? '') });
  }
  return blocks;
}

const ALL = pages().flatMap(blocksOf);
const CHECKED = ALL.filter((b) => !b.fragment);
const FRAGMENTS = ALL.filter((b) => b.fragment);

/**
 * Writes each block as a file: a block that starts with `// src/x.ts` (or `// x.ts`) under that
 * name, so the blocks of one page import each other as an application's files would; any other as
 * `L<line>.ts`. A name used twice on a page starts another folder for that page.
 */
function writeBlocks(): Map<string, Block> {
  const files = new Map<string, Block>();
  for (const block of CHECKED) {
    const named = /^\/\/ ((?:src\/)?[\w.-]+\.ts)\n/.exec(block.code)?.[1];
    // A page's test file is written under a name Jest's own run does not collect (see RUNNABLE).
    const name = named?.replace(/\.e2e-spec\.ts$/, RUNNABLE) ?? `L${block.line}.ts`;
    let group = 1;
    while (files.has(join(OUT, `${block.page.replace(/[/.]/g, '-')}-${group}`, name))) group++;
    const path = join(OUT, `${block.page.replace(/[/.]/g, '-')}-${group}`, name);
    mkdirSync(dirname(path), { recursive: true });
    // `export {}` makes every block a module (appended: the block's lines keep their numbers).
    writeFileSync(path, `${block.code}\nexport {};\n`);
    files.set(path, block);
  }
  return files;
}

describe('the TypeScript blocks of README.md and docs/', () => {
  it(`are ${ALL.length} blocks: ${CHECKED.length} compiled, ${FRAGMENTS.length} marked fragment and skipped`, () => {
    expect(CHECKED.length).toBeGreaterThan(20);
    const where = FRAGMENTS.map((b) => `${b.page}:${b.line}`);
    expect(where.length <= MAX_FRAGMENTS ? [] : where).toEqual([]);
  });

  it('each compiles as written, against the package entries (tsc, strict)', () => {
    rmSync(OUT, { recursive: true, force: true });
    const files = writeBlocks();
    const up = relative(OUT, ROOT).replaceAll('\\', '/');
    // The package name resolves to this repository's entries, as it would to the installed build.
    writeFileSync(
      join(OUT, 'tsconfig.json'),
      JSON.stringify({
        extends: `${up}/tsconfig.json`,
        compilerOptions: {
          noEmit: true,
          rootDir: up,
          types: ['node', 'jest'],
          paths: {
            '@mocapi/nestjs': [`${up}/src/index.ts`],
            '@mocapi/nestjs/*': [`${up}/src/*/index.ts`],
          },
        },
        include: ['**/*.ts', `${up}/src/**/*.d.ts`],
        exclude: [],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', OUT], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // Each diagnostic of a block names its page and line, e.g. docs/tools.md:42:7.
    const diagnostics = (tsc.stdout + tsc.stderr)
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith(' '))
      .map((line) => {
        const at = /^(.+?\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
        const block = at && files.get(join(ROOT, at[1]!));
        return block ? `${block.page}:${block.line + Number(at[2]) - 1}:${at[3]} ${at[4]}` : line;
      });
    expect(diagnostics).toEqual([]);
    expect(tsc.status).toBe(0);
  }, 180_000);

  it('the test files the pages show pass, run by Jest against the source', () => {
    const specs = [...writeBlocks().keys()].filter((path) => path.endsWith(RUNNABLE));
    expect(specs.map((path) => relative(OUT, path))).toEqual(['docs-testing-md-1/src/calculator.docs-spec.ts']);
    const config = {
      rootDir: ROOT,
      roots: [OUT],
      testMatch: [`**/*${RUNNABLE}`],
      testEnvironment: 'node',
      extensionsToTreatAsEsm: ['.ts'],
      transform: { '^.+\\.ts$': ['@swc/jest'] },
      // As in the user's app, but the package name resolves to this repository's source.
      moduleNameMapper: {
        '^@mocapi/nestjs$': join(ROOT, 'src/index.ts'),
        '^@mocapi/nestjs/(.*)$': join(ROOT, 'src/$1/index.ts'),
        '^(\\.{1,2}/.*)\\.js$': '$1',
      },
      setupFiles: ['reflect-metadata', join(ROOT, 'test/support/preload-nest.ts')],
    };
    const jest = spawnSync(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--no-warnings=ExperimentalWarning',
        join(ROOT, 'node_modules/jest/bin/jest.js'),
        '--ci',
        '--config',
        JSON.stringify(config),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(jest.stderr).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(jest.status).toBe(0);
  }, 180_000);
});
