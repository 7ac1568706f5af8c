/**
 * The origins an MCP App needs, by CSP directive (the extension's `McpUiResourceCsp`). Hosts build
 * the iframe's Content-Security-Policy from them; omitted means none (`connect-src 'none'`, no
 * nested frames, `base-uri 'self'`). Each entry is an origin such as `https://api.example.com`,
 * `wss://live.example.com` or `https://*.example.com`.
 *
 * @publicApi
 */
export interface McpUiCsp {
  /** fetch / XHR / WebSocket (`connect-src`). */
  connectDomains?: readonly string[];
  /** Scripts, styles, images, fonts, media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  resourceDomains?: readonly string[];
  /** Nested iframes (`frame-src`). */
  frameDomains?: readonly string[];
  /** Allowed `<base href>` values (`base-uri`). */
  baseUriDomains?: readonly string[];
}

/**
 * Browser features an MCP App asks for (Permission Policy, the iframe's `allow` attribute). Hosts
 * may refuse any of them: the app should detect the feature rather than assume it.
 *
 * @publicApi
 */
export interface McpUiPermissions {
  camera?: true | Record<string, never>;
  microphone?: true | Record<string, never>;
  geolocation?: true | Record<string, never>;
  clipboardWrite?: true | Record<string, never>;
}

/**
 * What an MCP App resource declares to hosts in `_meta.ui`, named as the extension's schema
 * (`McpUiResourceMeta`) names it.
 *
 * @publicApi
 */
export interface McpUiResourceDeclarations {
  csp?: McpUiCsp;
  permissions?: McpUiPermissions;
  /** A dedicated sandbox origin; its format is host-specific (see the host's documentation). */
  domain?: string;
  /** `true` asks the host for a visible border and background, `false` for none; omitted: the host decides. */
  prefersBorder?: boolean;
}

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const;
const PERMISSIONS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;
// An origin (optionally a wildcard subdomain, a port, a path): nothing that could end a CSP
// directive or start another, since hosts paste these into the policy.
const CSP_SOURCE = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/;

/**
 * The `_meta.ui` of an app resource: its own declarations over the module's defaults (CSP origins
 * and permissions are added together). Throws, naming `what`, when a declaration is malformed.
 */
export function uiResourceMeta(
  own: McpUiResourceDeclarations,
  defaults: McpUiResourceDeclarations,
  what: string,
): Record<string, unknown> {
  const ui: Record<string, unknown> = {};
  const csp: Record<string, string[]> = {};
  for (const key of CSP_KEYS) {
    const origins = [...new Set([...originsOf(defaults.csp, key, what), ...originsOf(own.csp, key, what)])];
    if (origins.length > 0) csp[key] = origins;
  }
  if (Object.keys(csp).length > 0) ui['csp'] = csp;
  const permissions: Record<string, Record<string, never>> = {};
  for (const source of [defaults.permissions, own.permissions]) {
    if (source === undefined) continue;
    if (typeof source !== 'object' || source === null) throw new Error(`${what}: permissions must be an object.`);
    for (const [name, value] of Object.entries(source)) {
      if (!(PERMISSIONS as readonly string[]).includes(name)) {
        throw new Error(`${what}: unknown permission "${name}" (known: ${PERMISSIONS.join(', ')}).`);
      }
      if (value === undefined) continue;
      if (value !== true && !(typeof value === 'object' && value !== null && Object.keys(value).length === 0)) {
        throw new Error(`${what}: permissions.${name} must be true or {}.`);
      }
      permissions[name] = {};
    }
  }
  if (Object.keys(permissions).length > 0) ui['permissions'] = permissions;
  const domain = own.domain;
  if (domain !== undefined) {
    if (typeof domain !== 'string' || domain === '' || /[\s;,'"]/.test(domain)) {
      throw new Error(`${what}: domain must be a host name such as "abc123.claudemcpcontent.com".`);
    }
    ui['domain'] = domain;
  }
  const prefersBorder = own.prefersBorder ?? defaults.prefersBorder;
  if (prefersBorder !== undefined) {
    if (typeof prefersBorder !== 'boolean') throw new Error(`${what}: prefersBorder must be true or false.`);
    ui['prefersBorder'] = prefersBorder;
  }
  return ui;
}

function originsOf(csp: McpUiCsp | undefined, key: (typeof CSP_KEYS)[number], what: string): readonly string[] {
  if (csp === undefined) return [];
  if (typeof csp !== 'object' || csp === null) throw new Error(`${what}: csp must be an object.`);
  const unknown = Object.keys(csp).filter((k) => !(CSP_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`${what}: unknown csp key "${unknown[0]}" (known: ${CSP_KEYS.join(', ')}).`);
  const origins = csp[key];
  if (origins === undefined) return [];
  if (!Array.isArray(origins)) throw new Error(`${what}: csp.${key} must be an array of origins.`);
  for (const origin of origins) {
    if (typeof origin !== 'string' || !CSP_SOURCE.test(origin)) {
      throw new Error(
        `${what}: csp.${key} entry ${JSON.stringify(origin)} is not an origin such as "https://api.example.com".`,
      );
    }
  }
  return origins;
}
