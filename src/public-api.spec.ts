import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Every symbol whose TSDoc says `@publicApi` is exported by the package entry its folder belongs to
 * (`@mocapi/nestjs/oauth2` for src/oauth2, `@mocapi/nestjs/testing` for src/testing, the root
 * otherwise), and every value the entries export exists. Types are checked by name in the entry's
 * source, values at run time.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const ENTRIES: Record<string, string> = {
  root: 'index.ts',
  oauth2: 'oauth2/index.ts',
  'authorization-server': 'authorization-server/index.ts',
  opentelemetry: 'opentelemetry/index.ts',
  throttler: 'throttler/index.ts',
  redis: 'redis/index.ts',
  bullmq: 'bullmq/index.ts',
  terminus: 'terminus/index.ts',
  apps: 'apps/index.ts',
  skills: 'skills/index.ts',
  testing: 'testing/index.ts',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `@publicApi` symbols, with the entry that must export them. */
function taggedSymbols(): Array<{ name: string; entry: string; file: string }> {
  const found: Array<{ name: string; entry: string; file: string }> = [];
  for (const file of sourceFiles(SRC)) {
    const rel = relative(SRC, file);
    const entry = Object.keys(ENTRIES).find((name) => rel.startsWith(`${name}/`)) ?? 'root';
    const text = readFileSync(file, 'utf8');
    const tagged =
      /@publicApi\s*\n\s*\*\/\s*\n(?:@\w+\([^)]*\)\s*\n)*export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|const|function|enum)\s+(\w+)/g;
    for (const match of text.matchAll(tagged)) found.push({ name: match[1]!, entry, file: rel });
  }
  return found;
}

/** The names an entry exports, read from its source (`export { a, type B } from`, `export *`, declarations). */
function exportedNames(entryFile: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(entryFile)) return names;
  seen.add(entryFile);
  const text = readFileSync(entryFile, 'utf8');
  for (const [, list] of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of list!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)!
        .trim();
      if (name) names.add(name);
    }
  }
  for (const [, from] of text.matchAll(/export\s+(?:type\s+)?\*\s+from\s+'([^']+)'/g)) {
    const target = join(entryFile, '..', from!.replace(/\.js$/, '.ts'));
    for (const name of exportedNames(target, seen)) names.add(name);
  }
  for (const [, name] of text.matchAll(
    /export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|type|const|function|enum)\s+(\w+)/g,
  ))
    names.add(name!);
  return names;
}

describe('the public API', () => {
  const symbols = taggedSymbols();

  it('finds the tagged symbols', () => {
    expect(symbols.length).toBeGreaterThan(80);
  });

  it.each(Object.keys(ENTRIES))('the %s entry exports every @publicApi symbol of its folder', (entry) => {
    const exported = exportedNames(join(SRC, ENTRIES[entry]!));
    const missing = symbols
      .filter((s) => s.entry === entry && !exported.has(s.name))
      .map((s) => `${s.name} (${s.file})`);
    expect(missing).toEqual([]);
  });

  it('keeps the internals out of the root entry (the server builds them; users never name them)', async () => {
    const exported = exportedNames(join(SRC, ENTRIES.root!));
    const internals = [
      'McpDispatcher',
      'RequestStateCodec',
      'AesGcmRequestStateCodec',
      'McpClock',
      'SystemClock',
      'McpStdioConnectionOptions',
    ];
    expect(internals.filter((name) => exported.has(name))).toEqual([]);
    // The connection `McpStdioTransport.listen` returns is named as a type; only the transport builds one.
    const root = (await import(join(SRC, ENTRIES.root!))) as Record<string, unknown>;
    expect(Object.keys(root)).not.toContain('McpStdioConnection');
  });

  it.each(Object.keys(ENTRIES))('every value the %s entry exports is defined at run time', async (entry) => {
    const module = (await import(join(SRC, ENTRIES[entry]!))) as Record<string, unknown>;
    const undefinedValues = Object.entries(module)
      .filter(([, value]) => value === undefined)
      .map(([name]) => name);
    expect(undefinedValues).toEqual([]);
    expect(Object.keys(module).length).toBeGreaterThan(0);
  });
});
