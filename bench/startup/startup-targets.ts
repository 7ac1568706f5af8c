/** The servers `npm run bench:startup` starts: a bare Nest route and ours, on each adapter. */
import { fileURLToPath } from 'node:url';

export type Adapter = 'fastify' | 'express';

export interface StartupTarget {
  readonly id: string;
  readonly label: string;
  readonly adapter: Adapter;
  /** Our app's tool count; null for the bare Nest route. */
  readonly ours: number | null;
  /** Compiled server entry (bench/out/build/bench/servers/*.js, tsc output). */
  readonly script: string;
  readonly nodeArgs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** TOOLS for the child. */
  readonly tools: number;
  /** Whether `tools/list` is served, and checked to hold `tools` tools. */
  readonly listed: boolean;
}

const script = (name: string): string => fileURLToPath(new URL(`../servers/${name}.js`, import.meta.url));

function bare(adapter: Adapter): StartupTarget {
  return {
    id: `nest-${adapter}`,
    label: `bare Nest route (${adapter})`,
    adapter,
    ours: null,
    script: script('nest-route'),
    nodeArgs: [],
    env: { NEST_ROUTE_ADAPTER: adapter },
    tools: 10,
    listed: false,
  };
}

function ours(adapter: Adapter, tools: number): StartupTarget {
  return {
    id: `mocapi-${adapter}-${tools}`,
    label: `ours, ${tools} tools (${adapter})`,
    adapter,
    ours: tools,
    script: script(`mocapi-${adapter}`),
    nodeArgs: [],
    env: {},
    tools,
    listed: true,
  };
}

/** Our tool counts by default: the two of issue 29. */
export const DEFAULT_TOOL_COUNTS: readonly number[] = [10, 500];

/** Per adapter: the bare Nest route, then ours with each of `toolCounts` tools. */
export function startupTargets(toolCounts: readonly number[] = DEFAULT_TOOL_COUNTS): StartupTarget[] {
  return (['fastify', 'express'] as const).flatMap((adapter) => [
    bare(adapter),
    ...toolCounts.map((tools) => ours(adapter, tools)),
  ]);
}
