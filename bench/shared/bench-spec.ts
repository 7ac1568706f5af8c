/**
 * What every benchmark server serves, described once so the targets stay comparable:
 * the protocol constants, the `add` / `confirm_add` / `confirm_steps` tools and the generated
 * filler tools used to pad `tools/list` to 10, 100, 500 or 2,000 entries. Each server maps these descriptions onto
 * its own schema system (zod for the SDK and MCP-Nest, class-validator DTOs for ours).
 */

export const PROTOCOL_VERSION = '2026-07-28';
export const MCP_PATH = '/mcp';
export const DEFAULT_HOST = '127.0.0.1';

/** The per-request `_meta` envelope every modern request carries. */
export const REQUEST_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
} as const;

/** The 2025-era revision the legacy workloads negotiate in `initialize` and send as `MCP-Protocol-Version`. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** The `initialize` params of the benchmark's 2025-era client (it can answer elicitations). */
export const LEGACY_INITIALIZE_PARAMS = {
  protocolVersion: LEGACY_PROTOCOL_VERSION,
  capabilities: { elicitation: {} },
  clientInfo: { name: 'mocapi-bench', version: '1.0.0' },
} as const;

export const ADD_TOOL = { name: 'add', description: 'Adds two numbers' } as const;
export const CONFIRM_ADD_TOOL = {
  name: 'confirm_add',
  description: 'Asks for a yes/no confirmation, then adds two numbers',
  message: 'Add them?',
  field: 'ok',
} as const;

/**
 * `confirm_steps {steps, a, b}` asks `steps` yes/no questions one after the other (field `ok`,
 * message "Step <k> of <n>?"), then answers `a + b`: the multi-round flows of the benchmark.
 */
export const CONFIRM_STEPS_TOOL = {
  name: 'confirm_steps',
  description: 'Asks for a yes/no confirmation `steps` times, one after the other, then adds two numbers',
  field: 'ok',
  maxSteps: 16,
} as const;

/** The question of step `step` (1-based) of `steps`; a new question each round. */
export function stepMessage(step: number, steps: number): string {
  return `Step ${step} of ${steps}?`;
}

/**
 * The prefix under which the gateway targets mount their upstream: the upstream's `add` is the
 * gateway's `up_add`.
 */
export const GATEWAY_PREFIX = 'up';

/** `add(2, 3)`: the trivial tool call every target must answer with the text "5". */
export const ADD_ARGUMENTS = { a: 2, b: 3 } as const;
export const ADD_EXPECTED_TEXT = '5';

/**
 * Our `pageSize` in the benchmark app: tools/list pages hold 1,000 entries by default, and the
 * benchmark lists up to 2,000 tools in one page, as the peers (which do not paginate) do.
 */
export const BENCH_PAGE_SIZE = 5000;

/** Secret shared by the servers that seal a requestState (32+ characters). */
export const BENCH_MRTR_SECRET = 'bench-only-secret-0123456789abcdef0123456789';

export type FieldKind = 'string' | 'integer' | 'number' | 'boolean';

export interface FillerField {
  readonly name: string;
  readonly kind: FieldKind;
  readonly description: string;
  readonly optional: boolean;
}

export interface FillerTool {
  readonly name: string;
  readonly description: string;
  readonly fields: readonly FillerField[];
}

/** The five fields of every filler tool: one of each common kind plus an optional one. */
const FILLER_FIELDS: readonly FillerField[] = [
  { name: 'city', kind: 'string', description: 'City to look up', optional: false },
  { name: 'days', kind: 'integer', description: 'How many days ahead', optional: false },
  { name: 'threshold', kind: 'number', description: 'Alert threshold', optional: false },
  { name: 'metric', kind: 'boolean', description: 'Use metric units', optional: false },
  { name: 'note', kind: 'string', description: 'Free-form note', optional: true },
];

/** The named tools every server registers before its fillers: add, confirm_add, confirm_steps. */
export const NAMED_TOOL_COUNT = 3;

/** How many tools a server registers: env TOOLS (default 10, minimum {@link NAMED_TOOL_COUNT}). */
export function toolCountFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env['TOOLS'] ?? '10');
  if (!Number.isInteger(raw) || raw < NAMED_TOOL_COUNT) {
    throw new Error(`TOOLS must be an integer >= ${NAMED_TOOL_COUNT}, got ${env['TOOLS']}`);
  }
  return raw;
}

/**
 * The filler tools for a server with `total` tools: the named tools come first, so there are
 * `total - 3` fillers named `filler_001`, `filler_002`, ... (`filler_1000` on from there).
 */
export function fillerTools(total: number): FillerTool[] {
  const tools: FillerTool[] = [];
  for (let i = 1; i <= total - NAMED_TOOL_COUNT; i++) {
    const id = String(i).padStart(3, '0');
    tools.push({
      name: `filler_${id}`,
      description: `Filler tool ${id}: looks up a weather forecast and reports alerts`,
      fields: FILLER_FIELDS,
    });
  }
  return tools;
}

/** The JSON Schema a filler tool's input corresponds to (used by the bare node:http ceiling). */
export function fillerJsonSchema(tool: FillerTool): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const field of tool.fields) {
    properties[field.name] = { type: field.kind, description: field.description };
  }
  return {
    type: 'object',
    properties,
    required: tool.fields.filter((f) => !f.optional).map((f) => f.name),
  };
}
