import { Inject, Injectable, Optional } from '@nestjs/common';
import { AllowAllAccessPolicy } from '../calls/allow-all-access-policy.js';
import { McpAccessPolicy, type McpAccessTarget } from '../calls/mcp-access-policy.js';
import type { McpMethodGroup, MethodHandler } from '../calls/method-handler.js';
import type { ResultCache } from '../calls/result-stamp.js';
import { INTEGRATION_ACCESS_POLICY } from '../core/mcp.tokens.js';
import type { ResolvedMcpLimits } from '../core/mcp-limits.options.js';
import type { ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import { paginate } from '../discovery/paginate.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpSkillCatalog } from './mcp-skill-catalog.js';
import { MCP_SKILLS_CONFIG } from './mcp-skills.module-definition.js';
import type { ResolvedMcpSkillsOptions } from './mcp-skills.options.js';
import type { CatalogSkill } from './skill-catalog-snapshot.js';

/** Method names of the Skills extension (SEP-2640). */
export const SkillsMethod = {
  List: 'skills/list',
  Get: 'skills/get',
  DirectoryRead: 'resources/directory/read',
} as const;

/**
 * `skills/list`, `skills/get` and (with `directoryRead`) `resources/directory/read`, joined to the
 * method table both eras share. Skills whose provider method the access policy hides for the caller
 * are left out of lists; asking for one is refused as calling a hidden tool is.
 */
@Injectable()
export class SkillsMethods implements McpMethodGroup {
  private readonly access: McpAccessPolicy;
  /** The path of the one server that answers these methods (undefined: the global server). */
  readonly server: string | undefined;
  readonly methods: Readonly<Record<string, MethodHandler>>;
  /** Every skills result may be cached, with {@link cache}'s hints. */
  readonly cacheable: readonly string[];

  constructor(
    private readonly catalog: McpSkillCatalog,
    @Inject(MCP_SKILLS_CONFIG) private readonly config: ResolvedMcpSkillsOptions,
    @Optional() @Inject(INTEGRATION_ACCESS_POLICY) access?: McpAccessPolicy,
  ) {
    this.access = access ?? new AllowAllAccessPolicy();
    this.server = config.server;
    this.methods = {
      [SkillsMethod.List]: (exchange) => this.list(exchange),
      [SkillsMethod.Get]: (exchange) => this.get(exchange),
      ...(config.directoryRead && {
        [SkillsMethod.DirectoryRead]: (exchange: McpExchange) => this.readDirectory(exchange),
      }),
    };
    this.cacheable = Object.keys(this.methods);
  }

  enabled(): boolean {
    return true;
  }

  private list(exchange: McpExchange): Record<string, unknown> {
    const visible = this.catalog.snapshot.skills.filter((item) => this.isVisible(exchange, item));
    const page = paginate(visible, exchange.params['cursor'], this.limits.pageSize);
    return {
      skills: page.items.map((item) => item.skill.entry),
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  }

  private get(exchange: McpExchange): Record<string, unknown> {
    const uri = uriParam(exchange);
    const item = this.catalog.snapshot.skill(uri);
    if (item === undefined) throw McpError.invalidParams(`No skill is served at ${uri}`, { uri });
    this.assertAllowed(exchange, item);
    return { skill: item.skill.entry };
  }

  private readDirectory(exchange: McpExchange): Record<string, unknown> {
    const uri = uriParam(exchange);
    const directory = this.catalog.snapshot.directory(uri);
    if (directory === undefined) throw McpError.invalidParams(`${uri} is not a skill directory`, { uri });
    this.assertAllowed(exchange, directory.owner);
    const page = paginate(directory.children, exchange.params['cursor'], this.limits.pageSize);
    return {
      resources: page.items,
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
    };
  }

  /** The options of the server the skills are published on. */
  private get options(): ResolvedMcpServerOptions {
    return this.catalog.server.options;
  }

  /** The bounds of the server the skills are published on. */
  private get limits(): ResolvedMcpLimits {
    return this.catalog.server.limits;
  }

  /** The cache hints of every skills result (the 2026-07-28 leg adds them): the skills' own, else the server's. */
  get cache(): ResultCache {
    const { cache } = this.config;
    return { ttlMs: cache.ttlMs ?? this.options.cache.ttlMs, scope: cache.scope ?? this.options.cache.scope };
  }

  private isVisible(exchange: McpExchange, item: CatalogSkill): boolean {
    const target = targetOf(item);
    return target === undefined || this.access.isVisible(exchange, target);
  }

  private assertAllowed(exchange: McpExchange, item: CatalogSkill): void {
    const target = targetOf(item);
    if (target !== undefined) this.access.assertAllowed(exchange, target);
  }
}

function targetOf(item: CatalogSkill): McpAccessTarget | undefined {
  const { owner } = item;
  if (owner === undefined) return undefined;
  return {
    kind: 'resource',
    name: item.skill.entry.uri,
    handlerClass: owner.instance.constructor,
    handlerName: owner.methodName,
  };
}

function uriParam(exchange: McpExchange): string {
  const uri = exchange.params['uri'];
  if (typeof uri !== 'string' || uri === '') throw McpError.invalidParams('params.uri must be a string');
  return uri;
}
