import { type DynamicModule, Injectable, Module, type Type } from '@nestjs/common';
import { ElicitationContext, type McpExchange, McpModule, McpPrincipalSource, McpTool } from '../../src/index.js';
import { McpOAuth2Module } from '../../src/oauth2/index.js';
import { McpSkillsModule } from '../../src/skills/index.js';
import { rpc as rawRpc } from '../support/raw-mcp.js';

export const SECRET = 'isolated-servers-secret-0123456789abcdef0123';

/** What each server's `export_data` returns: same tool name, different handlers. */
export const OPEN_EXPORT = 'open export: the public menu';
export const STAFF_EXPORT = 'staff export: the payroll';
/** What each server's `approve_export` (same name again, and it asks first) returns once approved. */
export const OPEN_APPROVED = 'open export approved';
export const STAFF_APPROVED = 'staff export approved';

/** Asks for an approval; whether it was given. */
async function approved(elicitation: ElicitationContext): Promise<boolean> {
  const answer = await elicitation.elicit('Approve the export?', (s) => s.boolean('ok'));
  return answer.action === 'accept' && answer.content.ok === true;
}

/** The public server's own tools. */
@Injectable()
class OpenTools {
  @McpTool({ name: 'export_data', description: 'Exports the public menu', taskSupport: 'optional' })
  exportData(): string {
    return OPEN_EXPORT;
  }

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'approve_export', description: 'Asks, then exports the public menu', taskSupport: 'optional' })
  async approveExport(): Promise<string> {
    return (await approved(this.elicitation)) ? OPEN_APPROVED : 'not approved';
  }

  @McpTool({ description: "Today's menu" })
  menu(): string {
    return 'soup, bread';
  }
}

/** The staff server's own tools: an `export_data` of the same name that must never run for /mcp. */
@Injectable()
class StaffTools {
  @McpTool({ name: 'export_data', description: 'Exports the payroll', taskSupport: 'optional' })
  exportData(): string {
    return STAFF_EXPORT;
  }

  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ name: 'approve_export', description: 'Asks, then exports the payroll', taskSupport: 'optional' })
  async approveExport(): Promise<string> {
    return (await approved(this.elicitation)) ? STAFF_APPROVED : 'not approved';
  }

  @McpTool({ description: 'Refunds a bill' })
  refund(): string {
    return 'refunded';
  }
}

/**
 * Served by both servers (its module is in both `include` lists): one tool, one handler, that asks
 * first (an `input_required` result with a requestState either server could open, were it not
 * sealed for its path).
 */
@Injectable()
class AskTools {
  constructor(private readonly elicitation: ElicitationContext) {}

  @McpTool({ description: 'Asks for a confirmation' })
  async confirm(): Promise<string> {
    const answer = await this.elicitation.elicit('Sure?', (s) => s.boolean('ok'));
    return answer.action === 'accept' && answer.content.ok ? 'confirmed' : 'not confirmed';
  }
}

@Module({ providers: [OpenTools] })
export class OpenModule {}

@Module({ providers: [StaffTools] })
export class StaffModule {}

@Module({ providers: [AskTools] })
export class AskModule {}

/**
 * The public server's principal: the `x-user` header as it is (`alice`, the very `sub` the staff
 * server's OAuth tokens carry), so one caller can hold the same principal on both servers; without
 * the header the caller is anonymous (its tasks are then its client address's).
 */
@Injectable()
export class HeaderPrincipalSource extends McpPrincipalSource {
  resolve(exchange: Pick<McpExchange, 'transport'>): string | null {
    if (exchange.transport.kind !== 'http') return null;
    const user = exchange.transport.request.headers['x-user'];
    return typeof user === 'string' && user !== '' ? user : null;
  }
}

export interface IsolatedServersOptions {
  readonly oauth2: { readonly issuer: string; readonly audience: string };
  /** A folder of skills, published on /mcp only. */
  readonly skills: string;
  /** Shared-state modules (McpRedisModule, McpTaskQueueModule), or none: every store in memory. */
  readonly imports?: DynamicModule[];
}

/**
 * One application, two MCP servers: the open, global one at /mcp (no authentication, skills) and
 * the staff one at /mcp/staff behind OAuth2 (`isGlobal: false`). Each has its own `export_data`
 * and `approve_export`.
 */
export function isolatedServersModule(options: IsolatedServersOptions): Type {
  const tasks = { ttlMs: 60_000, pollIntervalMs: 50 };
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'bistro',
        version: '1.0.0',
        mrtr: { secrets: [SECRET] },
        tasks,
        include: [OpenModule, AskModule],
        httpAuthenticator: false,
        principalSource: HeaderPrincipalSource,
      }),
      McpModule.forRoot({
        name: 'bistro-staff',
        version: '1.0.0',
        path: '/mcp/staff',
        mrtr: { secrets: [SECRET] },
        tasks,
        include: [StaffModule, AskModule],
        isGlobal: false,
      }),
      McpOAuth2Module.forRoot({ ...options.oauth2, requiredScopes: ['mcp:tools'] }),
      McpSkillsModule.forRoot({ directories: [options.skills], server: '/mcp' }),
      ...(options.imports ?? []),
      OpenModule,
      StaffModule,
      AskModule,
    ],
  })
  class IsolatedServersModule {}
  return IsolatedServersModule;
}

/** The tasks extension, and elicitation, declared on a request. */
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} }, elicitation: { form: {} } };

export interface WireOptions {
  /** A bearer token (the staff server needs one; the open one ignores it). */
  readonly token?: string;
  /** The open server's principal (`x-user`). */
  readonly user?: string;
  /** Client capabilities declared in `_meta`. Default: tasks and elicitation. */
  readonly capabilities?: Record<string, unknown>;
  /** The loopback address the request leaves from (the server sees it as the client's address). */
  readonly localAddress?: string;
}

export interface WireReply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: any;
}

let nextId = 1;

/**
 * One 2026-07-28 request (test/support/raw-mcp.ts, over node:http so that the client's source
 * address can be chosen), with the routing headers it needs (`Mcp-Name` for named calls and task
 * methods), a bearer token or a principal, and tasks and elicitation declared by default.
 */
export function rpc(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  options: WireOptions = {},
): Promise<WireReply & { readonly id: number }> {
  const id = nextId++;
  return rawRpc(url, method, params, {
    id,
    capabilities: options.capabilities ?? TASKS,
    headers: {
      ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      ...(options.user !== undefined && { 'x-user': options.user }),
    },
    ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
  }).then((reply) => ({ ...reply, id }));
}

/** The result of a successful reply (fails the test on an error). */
export function ok(reply: WireReply): any {
  expect(reply.json?.error).toBeUndefined();
  expect(reply.status).toBe(200);
  return reply.json.result;
}

/** Polls tasks/get until `done` holds (fails after 10 s); returns the last task seen. */
export async function pollTask(
  url: string,
  taskId: string,
  done: (task: any) => boolean,
  options: WireOptions = {},
): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = ok(await rpc(url, 'tasks/get', { taskId }, options));
    if (done(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
