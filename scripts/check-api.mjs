#!/usr/bin/env node
// The public API as a contract: one API Extractor report per entry of package.json "exports",
// committed under api/. `node scripts/check-api.mjs` (run by `npm run lint`) fails when the
// declarations no longer match the reports; `--local` (`npm run api`) rewrites the reports.
//
// The declarations come from the ESM build's settings (tsconfig.esm.json), less what TSDoc marks
// `@internal` (--stripInternal), emitted into a folder under .tools/ (ignored by git, ESLint and
// Prettier) rather than the OS temp folder, so that the packages they import resolve from this
// repository's node_modules. No full build, no network.
import { Extractor, ExtractorConfig, CompilerState } from '@microsoft/api-extractor';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const local = process.argv.includes('--local');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** `.` -> `nestjs`, `./oauth2` -> `nestjs-oauth2`; the declaration file relative to dist/esm. */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target === 'object' && target.import?.types)
  .map(([subpath, target]) => ({
    subpath,
    report: subpath === '.' ? 'nestjs' : `nestjs-${subpath.slice(2).replaceAll('/', '-')}`,
    types: relative('dist/esm', target.import.types),
  }));

mkdirSync(join(ROOT, '.tools'), { recursive: true });
const work = mkdtempSync(join(ROOT, '.tools', 'api-'));
try {
  process.exitCode = run(work);
} finally {
  rmSync(work, { recursive: true, force: true });
}

function run(work) {
  const dts = join(work, 'dts');
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const emitted = spawnSync(
    process.execPath,
    [
      tsc,
      '-p',
      'tsconfig.esm.json',
      '--emitDeclarationOnly',
      '--declarationMap',
      'false',
      // What TSDoc marks `@internal` (the constructor of an injectable that Nest builds, a member the
      // package's own integrations read) is not the public API: left out of the declarations the
      // reports are made from, it is neither listed nor flagged for the types it names. A public
      // signature that names an `@internal` type fails the check (the type no longer resolves).
      '--stripInternal',
      '--outDir',
      dts,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (emitted.status !== 0) {
    process.stderr.write(`check-api: tsc could not emit the declarations:\n${emitted.stdout}${emitted.stderr}`);
    return 1;
  }

  const base = ExtractorConfig.loadFile(join(ROOT, 'api-extractor.json'));
  const configs = entries.map((entry) =>
    ExtractorConfig.prepare({
      configObject: {
        ...base,
        mainEntryPointFilePath: join(dts, entry.types),
        apiReport: { ...base.apiReport, reportFileName: entry.report, reportTempFolder: join(work, 'report') },
      },
      configObjectFullPath: join(ROOT, 'api-extractor.json'),
      packageJsonFullPath: join(ROOT, 'package.json'),
    }),
  );
  // One TypeScript program for every entry: the analysis is the slow part.
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: configs.map((config) => config.mainEntryPointFilePath),
  });

  const drifted = [];
  let problems = 0;
  for (const [index, config] of configs.entries()) {
    const entry = entries[index];
    // Always the "production" mode, which only writes the temporary report: the comparison is done
    // below, once the temporary folder's name is out of the report.
    const result = Extractor.invoke(config, {
      localBuild: false,
      compilerState,
      messageCallback(message) {
        message.handled = true;
        if (message.logLevel !== 'error' && message.logLevel !== 'warning') return;
        // What happened to the report files is said below (the drift as a diff).
        if (String(message.messageId).startsWith('console-api-report-')) return;
        problems += 1;
        process.stderr.write(`check-api (${entry.subpath}): ${message.formatMessageWithLocation(ROOT)}\n`);
      },
    });
    if (result.errorCount > 0) problems += 1;
    const { fileName } = config.reportConfigs[0];
    const committed = join(config.reportFolder, fileName);
    const fresh = join(config.reportTempFolder, fileName);
    // Warnings name a declaration file: where a build puts it rather than where we did, and without
    // the line, which any edit above it would move.
    const report = readFileSync(fresh, 'utf8')
      .replaceAll(`${relative(ROOT, dts)}/`, 'dist/esm/')
      .replace(/(dist\/esm\/\S+\.d\.ts):\d+:\d+/g, '$1');
    writeFileSync(fresh, report);
    const before = existsSync(committed) ? readFileSync(committed, 'utf8') : undefined;
    if (report === before) continue;
    drifted.push({ entry, committed, fresh, missing: before === undefined });
    if (local) {
      mkdirSync(config.reportFolder, { recursive: true });
      writeFileSync(committed, report);
    }
  }

  if (local) {
    const written = drifted.map(({ committed }) => relative(ROOT, committed));
    console.log(written.length ? `check-api: updated ${written.join(', ')}` : 'check-api: the API reports are current');
    return problems > 0 ? 1 : 0;
  }
  for (const { entry, committed, fresh, missing } of drifted) {
    process.stderr.write(
      `\ncheck-api: the public API of "${entry.subpath}" differs from ${relative(ROOT, committed)}:\n`,
    );
    if (missing) {
      process.stderr.write('  (no committed report)\n');
      continue;
    }
    const diff = spawnSync('git', ['diff', '--no-index', '--no-color', relative(ROOT, committed), fresh], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    // Without git, the message above and the advice below still say what to do.
    process.stderr.write((diff.stdout ?? '').split('\n').slice(4).join('\n'));
  }
  if (drifted.length === 0 && problems === 0) {
    console.log(`check-api: the public API of ${entries.length} entries matches api/`);
  }
  if (drifted.length > 0) {
    process.stderr.write(
      '\ncheck-api: if the change is intended, run `npm run api` and commit the api/ reports with it.\n',
    );
  }
  return drifted.length > 0 || problems > 0 ? 1 : 0;
}
