import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { freePort } from '../support/free-port.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = join(ROOT, 'test/readme/.generated/quick-start');
const REGISTER = join(ROOT, 'test/stdio/swc-register.mjs');

/** The `// src/<file>.ts` code blocks of the README's Quick start, exactly as written there. */
function quickStartFiles(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Quick start'),
    readme.indexOf('\n## ', readme.indexOf('## Quick start') + 3),
  );
  const files = new Map<string, string>();
  for (const [, code] of section.matchAll(/```ts\n([\s\S]*?)```/g)) {
    const name = /^\/\/ (src\/[\w.-]+\.ts)\n/.exec(code!)?.[1];
    if (name) files.set(name, code!);
  }
  return files;
}

/** The README's "Connect a client" block, exactly as written there. */
function clientBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Connect a client');
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(start, readme.indexOf('\n## ', start + 3)))?.[1];
  if (!code) throw new Error('README.md has no ```ts block under "## Connect a client"');
  return code;
}

describe('the README Quick start, pasted into an application', () => {
  let child: ChildProcess | undefined;
  let output = '';
  let url = '';

  beforeAll(async () => {
    const files = quickStartFiles();
    expect([...files.keys()].sort()).toEqual(['src/app.module.ts', 'src/calculator.tools.ts', 'src/main.ts']);
    rmSync(APP, { recursive: true, force: true });
    for (const [name, code] of files) {
      const path = join(APP, name);
      mkdirSync(dirname(path), { recursive: true });
      // The one change: the package name points at this repository's source.
      const entry = relative(dirname(path), join(ROOT, 'src/index.js')).replaceAll('\\', '/');
      writeFileSync(
        path,
        code.replaceAll("from '@mocapi/nestjs'", `from '${entry.startsWith('.') ? entry : `./${entry}`}'`),
      );
    }
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(process.execPath, ['--import', REGISTER, join(APP, 'src/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), MCP_STATE_SECRET: 'a-quick-start-secret-with-at-least-32-chars' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('MCP endpoint')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`The app did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(APP, { recursive: true, force: true });
  });

  it('serves both tools to the official client on its default settings, the eliciting one included', async () => {
    const client = new Client({ name: 'readme-check', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      expect(request.params.message).toBe('Add 2 and 3?');
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['add', 'carefulAdd']);
      expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([
        { type: 'text', text: '5' },
      ]);
      expect((await client.callTool({ name: 'carefulAdd', arguments: { a: 2, b: 3 } })).content).toEqual([
        { type: 'text', text: '5' },
      ]);
    } finally {
      await client.close();
    }
    expect(output).not.toMatch(/ERROR/);
  });

  it('answers the README\'s "Connect a client" script, run as written (but for the port)', async () => {
    const script = join(APP, 'client.ts');
    writeFileSync(script, clientBlock().replaceAll('http://127.0.0.1:3000/mcp', url));
    const run = spawn(process.execPath, ['--import', REGISTER, script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    run.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    run.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const code = await new Promise((resolve) => run.once('exit', resolve));
    expect(printed).toMatch(/type: 'text', text: '5'/);
    expect(code).toBe(0);
  }, 60_000);
});
