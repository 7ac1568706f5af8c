// A small MCP Apps host for the e2e test, built only from the official pieces: the client of
// @modelcontextprotocol/client talks to the server (same origin, /mcp), and AppBridge with
// PostMessageTransport of @modelcontextprotocol/ext-apps/app-bridge talks to the view, which it
// renders in a sandboxed iframe under the CSP the resource declares. It reports what it saw on
// `window.testHost` for the test to read.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  buildAllowAttribute,
  getToolUiResourceUri,
  type McpUiResourceCsp,
  type McpUiResourceMeta,
} from '@modelcontextprotocol/ext-apps/app-bridge';

interface HostReport {
  era: string;
  step: string;
  error?: string;
  protocolVersion?: string;
  serverExtensions?: Record<string, unknown>;
  toolMeta?: Record<string, unknown>;
  resource?: { mimeType?: string; ui?: McpUiResourceMeta };
  csp?: string;
  appInfo?: unknown;
  toolResult?: unknown;
}

const params = new URLSearchParams(location.search);
const era = params.get('era') ?? '2025';
const toolName = params.get('tool') ?? 'find_tables';
const toolArgs = JSON.parse(params.get('args') ?? '{}') as Record<string, unknown>;
const report: HostReport = { era, step: 'starting' };
(window as unknown as { testHost: HostReport }).testHost = report;

/** The policy the spec has hosts build from `_meta.ui.csp` (its strict default when nothing is declared). */
function contentSecurityPolicy(csp: McpUiResourceCsp | undefined): string {
  const list = (origins: string[] | undefined, fallback = ''): string => origins?.join(' ') || fallback;
  const resources = list(csp?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src ${list(csp?.connectDomains, "'none'")}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp?.frameDomains, "'none'")}`,
    "object-src 'none'",
    `base-uri ${list(csp?.baseUriDomains, "'self'")}`,
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/** The view's HTML with the policy as the first element of its head, so it governs everything after. */
function withPolicy(html: string, policy: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replaceAll('"', '&quot;')}">`;
  const head = /<head[^>]*>/i.exec(html);
  return head ? html.replace(head[0], `${head[0]}${meta}`) : meta + html;
}

async function run(): Promise<void> {
  const client = new Client(
    { name: 'mocapi-test-host', version: '1.0.0' },
    {
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } } as never,
      ...(era === '2026' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  report.protocolVersion = client.getNegotiatedProtocolVersion?.();
  report.serverExtensions = (client.getServerCapabilities()?.extensions ?? {}) as Record<string, unknown>;
  report.step = 'connected';

  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  if (!tool) throw new Error(`${toolName} is not listed`);
  report.toolMeta = tool._meta as Record<string, unknown>;
  const uri = getToolUiResourceUri(tool);
  if (!uri) throw new Error(`${toolName} is not linked to an app`);

  const read = await client.readResource({ uri });
  const content = read.contents[0]!;
  const ui = (content._meta as { ui?: McpUiResourceMeta } | undefined)?.ui;
  report.resource = { mimeType: content.mimeType, ui };
  if (content.mimeType !== RESOURCE_MIME_TYPE) throw new Error(`${uri} is ${content.mimeType}`);
  const html = 'text' in content ? content.text : atob(content.blob);
  report.csp = contentSecurityPolicy(ui?.csp);

  const bridge = new AppBridge(
    client,
    { name: 'mocapi-test-host', version: '1.0.0' },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme: 'light', displayMode: 'inline', platform: 'web', locale: 'en-GB' } },
  );
  bridge.oninitialized = () => {
    report.appInfo = bridge.getAppVersion();
    report.step = 'initialized';
    void (async () => {
      await bridge.sendToolInput({ arguments: toolArgs });
      const result = await client.callTool({ name: toolName, arguments: toolArgs });
      report.toolResult = result;
      await bridge.sendToolResult(result as never);
      report.step = 'result-sent';
    })().catch(fail);
  };
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) iframe.style.height = `${height}px`;
  };

  const iframe = document.createElement('iframe');
  // An opaque origin: the view reaches neither this page nor the server except through the bridge.
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('allow', buildAllowAttribute(ui?.permissions));
  iframe.title = tool.title ?? toolName;
  if (ui?.prefersBorder) iframe.classList.add('bordered');
  document.getElementById('view')!.append(iframe);
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = withPolicy(html, report.csp);
  report.step = 'rendering';
}

function fail(error: unknown): void {
  report.error = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
  report.step = 'failed';
}

run().catch(fail);
