#!/usr/bin/env node
// Builds each MCP App view of the sample (sample/apps/<name>/<name>.{html,ts,css}) into ONE
// self-contained HTML file, sample/apps/dist/<name>.html: the script bundled by esbuild and the
// styles inlined, because hosts render the view in a sandboxed iframe where relative URLs do not
// resolve. Run by `npm run build:apps`, which `npm start`, `npm test` and the demo run first.
// The same works with Vite and vite-plugin-singlefile; esbuild is what this repository has.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'dist');

/** The view's HTML with its styles and bundled script in place of the two markers. */
async function buildApp(name) {
  const dir = join(HERE, name);
  const result = await build({
    entryPoints: [join(dir, `${name}.ts`)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  // An inline script ends at the first "</script": keep the bundle from containing one.
  const script = result.outputFiles[0].text.replaceAll('</script', '<\\/script');
  const styles = readFileSync(join(dir, `${name}.css`), 'utf8');
  const template = readFileSync(join(dir, `${name}.html`), 'utf8');
  for (const marker of ['/*styles*/', '/*script*/']) {
    if (template.split(marker).length !== 2) throw new Error(`${name}.html must contain ${marker} exactly once`);
  }
  return template.split('/*styles*/').join(styles).split('/*script*/').join(script);
}

const started = Date.now();
const names = readdirSync(HERE).filter((entry) => entry !== 'dist' && statSync(join(HERE, entry)).isDirectory());
mkdirSync(OUT, { recursive: true });
for (const name of names) {
  const html = await buildApp(name);
  writeFileSync(join(OUT, `${name}.html`), html);
  console.log(`build:apps: sample/apps/dist/${name}.html (${Math.round(html.length / 1024)} KiB)`);
}
console.log(`build:apps: ${names.length} app(s) in ${Date.now() - started} ms`);
