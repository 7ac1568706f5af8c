import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import { type FSWatcher, watch } from 'node:fs';
import { isSingleton, providerMethods } from '../discovery/provider-methods.js';
import { type McpServerRef, McpServers } from '../mcp-servers.js';
import { MCP_SKILL_METADATA } from './mcp-skill.decorator.js';
import { MCP_SKILLS_CONFIG } from './mcp-skills.module-definition.js';
import type { ResolvedMcpSkillsOptions } from './mcp-skills.options.js';
import { buildDynamicSkill, buildSkill, McpSkillDefinitionError, type McpSkillEntry } from './skill-builder.js';
import { type CatalogSkill, SkillCatalogSnapshot, type SkillOwner } from './skill-catalog-snapshot.js';
import { contentFrom, dynamicSkillReader } from './dynamic-skill-reader.js';
import { bytesOf, type SkillFile } from './skill-files.js';
import { readSkillFolder, readSkillsDirectory } from './skill-folder-reader.js';

/**
 * The identifier the server declares in `capabilities.extensions`.
 *
 * @publicApi
 */
export const MCP_SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * What a reload changed, as `SKILL.md` URIs.
 *
 * @publicApi
 */
export interface McpSkillCatalogChanges {
  /** Skills published now that were not before. */
  readonly added: readonly string[];
  /** Skills no longer published. */
  readonly removed: readonly string[];
  /** Skills whose entry changed: a file added, removed or changed, or the frontmatter. */
  readonly changed: readonly string[];
}

/** Reads a skill file's content for resources/read: exactly the bytes the entry's digest covers. */
const contentOf = (file: SkillFile) => (): string | Uint8Array => file.text ?? file.bytes;

/**
 * The skills this server publishes: read and hashed at startup from the `directories` of
 * `McpSkillsModule` and from every `@McpSkill` provider method, then served from memory, so what
 * resources/read answers always matches the entry `skills/list` gives, whatever happens on disk.
 * `reload()` builds the catalog again and swaps it in at once; clients hear of the change
 * (`notifications/resources/list_changed`, and `resources/updated` for a changed file), on every
 * node when the event bus is shared.
 *
 * @publicApi
 */
@Injectable()
export class McpSkillCatalog implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpSkills');
  private current = new SkillCatalogSnapshot([]);
  private owners: SkillOwner[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly watchers: FSWatcher[] = [];
  private watchTimer: NodeJS.Timeout | undefined;
  private attached: McpServerRef | undefined;

  /** @internal Nest builds it. */
  constructor(
    @Inject(MCP_SKILLS_CONFIG) private readonly config: ResolvedMcpSkillsOptions,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly moduleRef: ModuleRef,
  ) {}

  /**
   * @internal The server the skills are published on (the `server` option, else the global one);
   * startup fails when there is no such server.
   */
  get server(): McpServerRef {
    return (this.attached ??= new McpServers(this.moduleRef).get(this.config.server));
  }

  private get registrar() {
    return this.server.registrar;
  }

  /** Declares the extension and builds the catalog (startup fails on an invalid skill). */
  async onModuleInit(): Promise<void> {
    this.server.extensions.declare(MCP_SKILLS_EXTENSION, this.config.directoryRead ? { directoryRead: true } : {});
    this.owners = this.discoverOwners();
    this.swap(await this.build());
    if (this.config.watch) this.startWatching();
  }

  /** Stops watching the folders. */
  onModuleDestroy(): void {
    clearTimeout(this.watchTimer);
    for (const watcher of this.watchers.splice(0)) watcher.close();
  }

  /** The skills served, sorted by URI: exactly what clients receive. */
  get entries(): readonly McpSkillEntry[] {
    return this.current.skills.map((item) => item.skill.entry);
  }

  /** @internal The state the methods answer from. */
  get snapshot(): SkillCatalogSnapshot {
    return this.current;
  }

  /**
   * Reads every skill again (folders and `@McpSkill` methods) and swaps the new catalog in. All or
   * nothing: when a skill is invalid, this rejects with the error naming its file and the old
   * catalog keeps serving. Overlapping calls run one after another.
   */
  reload(): Promise<McpSkillCatalogChanges> {
    const run = this.queue.then(async () => this.swap(await this.build()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async build(): Promise<SkillCatalogSnapshot> {
    const { baseUri, limits } = this.config;
    const skills: CatalogSkill[] = [];
    for (const directory of this.config.directories) {
      for (const folder of await readSkillsDirectory(directory)) {
        skills.push({ skill: buildSkill({ ...folder, baseUri, limits }), owner: undefined });
      }
    }
    for (const owner of this.owners) {
      const where = `@McpSkill ${owner.instance.constructor.name}.${owner.methodName}()`;
      const content = await contentFrom(owner);
      if (owner.dynamic) {
        const manifest = typeof content === 'object' && content !== null ? content['SKILL.md'] : undefined;
        if (manifest === undefined) {
          throw new McpSkillDefinitionError(where, 'a dynamic skill must return its files, SKILL.md included');
        }
        skills.push({ skill: buildDynamicSkill(where, bytesOf(manifest), baseUri), owner });
      } else if (typeof content === 'string') {
        skills.push({ skill: buildSkill({ ...(await readSkillFolder(content)), baseUri, limits }), owner });
      } else if (typeof content === 'object' && content !== null) {
        const files = Object.entries(content).map(([path, value]) => ({ path, bytes: bytesOf(value) }));
        skills.push({ skill: buildSkill({ where, files, baseUri, limits }), owner });
      } else {
        throw new McpSkillDefinitionError(where, 'must return the skill files ({ "SKILL.md": … }) or a folder path');
      }
    }
    const seen = new Map<string, string>();
    for (const { skill, owner } of skills) {
      const from = owner ? `${owner.instance.constructor.name}.${owner.methodName}()` : 'a skills directory';
      const other = seen.get(skill.entry.uri);
      if (other !== undefined) {
        throw new McpSkillDefinitionError(
          skill.entry.uri,
          `is published twice (by ${other} and ${from}); skill names must be unique`,
        );
      }
      seen.set(skill.entry.uri, from);
    }
    return new SkillCatalogSnapshot(skills);
  }

  /** Swaps `next` in: its files become resources (resources/read serves their bytes), the old ones go. */
  private swap(next: SkillCatalogSnapshot): McpSkillCatalogChanges {
    const previous = this.current;
    const updated: string[] = [];
    for (const [uri, { file }] of previous.files) {
      const kept = next.files.get(uri);
      if (kept?.file.digest === file.digest && kept.owner.owner === previous.files.get(uri)!.owner.owner) continue;
      this.registrar.removeResource(uri);
      if (kept) updated.push(uri);
    }
    for (const [uri, { owner, file }] of next.files) {
      const old = previous.files.get(uri);
      if (old?.file.digest === file.digest && old.owner.owner === owner.owner) continue;
      this.register(owner, file);
    }
    this.swapTemplates(previous, next);
    this.current = next;
    for (const uri of updated) this.registrar.notifyResourceUpdated(uri);
    const before = new Map(previous.skills.map((item) => [item.skill.entry.uri, JSON.stringify(item.skill.entry)]));
    const after = next.skills.map((item) => item.skill.entry);
    return {
      added: after.filter((entry) => !before.has(entry.uri)).map((entry) => entry.uri),
      removed: [...before.keys()].filter((uri) => next.skill(uri) === undefined),
      changed: after
        .filter((entry) => before.has(entry.uri) && before.get(entry.uri) !== JSON.stringify(entry))
        .map((entry) => entry.uri),
    };
  }

  /**
   * A skill file as a resource. A skill from a provider method is read through a stand-in of that
   * provider, so the access policy sees the method (its `@McpScopes`) and the class's enhancers apply.
   */
  private register(item: CatalogSkill, file: SkillFile): void {
    const methodName = item.owner?.methodName ?? 'read';
    const reader: Record<string, unknown> = item.owner ? Object.create(item.owner.instance) : new PublicSkillFile();
    Object.defineProperty(reader, methodName, { value: contentOf(file) });
    this.registrar.addResource(reader, methodName, {
      uri: file.uri,
      // A skill's SKILL.md is named and described by its frontmatter (SEP-2640); other files by path.
      ...(file.path === 'SKILL.md'
        ? { name: item.skill.name, description: item.skill.entry.frontmatter.description }
        : { name: `${item.skill.name}/${file.path}` }),
      mimeType: file.mimeType,
      size: file.bytes.byteLength,
    });
  }

  /** A dynamic skill's files are one resource template under its root, read through its method. */
  private swapTemplates(previous: SkillCatalogSnapshot, next: SkillCatalogSnapshot): void {
    const dynamic = (snapshot: SkillCatalogSnapshot) =>
      new Map(snapshot.skills.filter((item) => item.owner?.dynamic).map((item) => [templateOf(item), item]));
    const [before, after] = [dynamic(previous), dynamic(next)];
    for (const [template, item] of before) {
      if (after.get(template)?.owner !== item.owner) this.registrar.removeResourceTemplate(template);
    }
    for (const [template, item] of after) {
      if (before.get(template)?.owner === item.owner) continue;
      const owner = item.owner!;
      const reader = dynamicSkillReader(owner, item.skill.entry.uri.slice(0, -'SKILL.md'.length));
      this.registrar.addResourceTemplate(reader, owner.methodName, {
        uriTemplate: template,
        name: item.skill.name,
        description: item.skill.entry.frontmatter.description,
      });
    }
  }

  private discoverOwners(): SkillOwner[] {
    const owners: SkillOwner[] = [];
    // Only the providers of the modules the server serves (its `include`), as its tools are.
    const { include } = this.server.options;
    const scope = include === undefined ? {} : { include: [...include] };
    for (const { wrapper, instance, methodName, method } of providerMethods(
      this.discovery.getProviders(scope),
      this.scanner,
    )) {
      const options = Reflect.getMetadata(MCP_SKILL_METADATA, method) as unknown;
      if (options === undefined) continue;
      if (!isSingleton(wrapper)) {
        throw new McpSkillDefinitionError(
          `@McpSkill ${instance.constructor.name}.${methodName}()`,
          'a skill must be published by a singleton provider (not request-scoped or transient)',
        );
      }
      owners.push({ instance, methodName, dynamic: (options as { dynamic: boolean }).dynamic });
    }
    return owners;
  }

  private startWatching(): void {
    for (const directory of this.config.directories) {
      const watcher = watch(directory, { recursive: true }, () => {
        clearTimeout(this.watchTimer);
        this.watchTimer = setTimeout(() => {
          this.reload().then(
            (changes) => this.logger.log(`Skills reloaded: ${describe(changes)}`),
            (error: unknown) => this.logger.warn(`Skills not reloaded, the old ones are served: ${String(error)}`),
          );
        }, 200);
      });
      watcher.on('error', (error) => this.logger.warn(`Stopped watching ${directory}: ${error.message}`));
      this.watchers.push(watcher);
    }
  }
}

function templateOf(item: CatalogSkill): string {
  return `${item.skill.entry.uri.slice(0, -'/SKILL.md'.length)}/{+path}`;
}

/** The reader of a skill from `directories`: no provider, so no scopes. */
class PublicSkillFile {}

function describe(changes: McpSkillCatalogChanges): string {
  const parts = (['added', 'removed', 'changed'] as const)
    .filter((key) => changes[key].length > 0)
    .map((key) => `${key} ${changes[key].join(', ')}`);
  return parts.length > 0 ? parts.join('; ') : 'nothing changed';
}
