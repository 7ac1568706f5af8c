import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModuleRef } from '@nestjs/core';
import type { McpResourceOptions } from '../decorators/mcp-resource.decorator.js';
import { isSingleton, providerMethods } from '../discovery/provider-methods.js';
import { checkIcons } from '../protocol/icons.js';
import { appLinkProblem, MCP_APP_MIME_TYPE, MCP_UI_EXTENSION } from '../discovery/mcp-apps-support.js';
import { type McpServerRef, McpServers } from '../mcp-servers.js';
import { readAppBundle } from './app-bundle-file.js';
import { MCP_APP_RESOURCE_METADATA, type McpAppResourceOptions } from './mcp-app-resource.decorator.js';
import { MCP_APPS_CONFIG } from './mcp-apps.module-definition.js';
import type { McpAppBundleOptions, ResolvedMcpAppsOptions } from './mcp-apps.options.js';
import { uiResourceMeta } from './mcp-ui-resource-meta.js';

/** Serves one bundle file's HTML, read at startup. */
class McpAppBundle {
  constructor(private readonly html: string) {}

  read(): string {
    return this.html;
  }
}

/**
 * Declares the extension, registers the app resources (decorated methods and bundle files), and
 * once everything is registered checks that every tool's UI link names an app resource.
 */
@Injectable()
export class McpAppsInstaller implements OnModuleInit, OnApplicationBootstrap {
  /** The server the apps are served by (the `server` option, else the global one). */
  private server!: McpServerRef;

  constructor(
    @Inject(MCP_APPS_CONFIG) private readonly config: ResolvedMcpAppsOptions,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.server = new McpServers(this.moduleRef).get(this.config.server);
    this.server.extensions.declare(MCP_UI_EXTENSION, { mimeTypes: [MCP_APP_MIME_TYPE] });
    for (const app of this.config.apps) this.registerBundle(app);
    this.registerDecorated();
  }

  onApplicationBootstrap(): void {
    for (const tool of this.server.tools.values()) {
      const problem = appLinkProblem(tool, this.server.resources);
      if (problem !== undefined) throw new Error(problem);
    }
  }

  private registerBundle(app: McpAppBundleOptions): void {
    const what = `McpAppsModule app ${app.uri}`;
    checkUiUri(app.uri, what);
    const file = readAppBundle(app.bundle, app.uri, this.config.maxBundleBytes);
    this.server.registrar.addResource(new McpAppBundle(file.html), 'read', {
      ...this.resourceOptions(app, app.name, what),
      size: file.bytes,
      annotations: { lastModified: file.modified.toISOString() },
    });
  }

  private registerDecorated(): void {
    // Only the providers of the modules the server serves (its `include`), as its tools are.
    const { include } = this.server.options;
    const scope = include === undefined ? {} : { include: [...include] };
    const wrappers = [...this.discovery.getProviders(scope), ...this.discovery.getControllers(scope)];
    for (const { wrapper, instance, methodName, method } of providerMethods(wrappers, this.scanner)) {
      const options = Reflect.getMetadata(MCP_APP_RESOURCE_METADATA, method) as McpAppResourceOptions | undefined;
      if (!options) continue;
      const what = `@McpAppResource ${instance.constructor.name}.${methodName}`;
      if (!isSingleton(wrapper)) {
        throw new Error(`${what}: an app resource must be on a singleton provider (not request-scoped or transient).`);
      }
      checkUiUri(options.uri, what);
      this.server.registrar.addResource(
        instance,
        methodName,
        this.resourceOptions(options, options.name ?? methodName, what),
      );
    }
  }

  private resourceOptions(
    app: McpAppResourceOptions,
    name: string,
    what: string,
  ): McpResourceOptions & { uri: string; name: string } {
    const ui = uiResourceMeta(app, this.config.defaults, what);
    const icons = checkIcons(app.icons, what);
    return {
      uri: app.uri,
      name,
      ...(app.title !== undefined && { title: app.title }),
      ...(app.description !== undefined && { description: app.description }),
      ...(icons && { icons }),
      mimeType: MCP_APP_MIME_TYPE,
      _meta: { ui },
    };
  }
}

function checkUiUri(uri: unknown, what: string): void {
  if (typeof uri !== 'string' || !/^ui:\/\/[^\s]+$/.test(uri)) {
    throw new Error(
      `${what}: an MCP App resource URI must use the ui:// scheme (e.g. ui://my-server/my-view), got ${String(uri)}.`,
    );
  }
}
