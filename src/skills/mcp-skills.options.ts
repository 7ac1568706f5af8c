import { attachedServer } from '../mcp-servers.js';

/**
 * The interoperability limits of the Skills extension: hosts must accept a skill up to 512 files
 * and 16 MiB; servers should not publish larger ones.
 *
 * @publicApi
 */
export const SKILL_LIMITS: Readonly<{ files: number; bytes: number }> = Object.freeze({
  files: 512,
  bytes: 16 * 1024 * 1024,
});

/**
 * Options of `McpSkillsModule.forRoot` / `forRootAsync`.
 *
 * @publicApi
 */
export interface McpSkillsOptions {
  /**
   * Folders of skills: every subfolder is one skill, named after it, with a `SKILL.md` and the files
   * it references. Read and hashed at startup (and by `McpSkillCatalog.reload()`); a relative path
   * resolves against the working directory. Default none (skills from `@McpSkill` providers only).
   */
  directories?: readonly string[];
  /**
   * Put in every skill URI: `'bistro'` serves `skill://bistro/<skill>/SKILL.md`. Default none
   * (`skill://<skill>/SKILL.md`).
   */
  prefix?: string;
  /** Serve `resources/directory/read` (and declare `directoryRead`). Default false. */
  directoryRead?: boolean;
  /**
   * The `path` of the server that publishes the skills, when the application runs several
   * (`'/mcp/staff'`). Default: the global server. The other servers neither declare the extension
   * nor answer `skills/*` (-32601).
   */
  server?: string;
  /**
   * `ttlMs` / `cacheScope` of `skills/list`, `skills/get` and directory pages (2026-07-28). Default:
   * the `cache` option of `McpModule`.
   */
  cache?: {
    /** How long a client may reuse a page, in milliseconds. */
    ttlMs?: number;
    /** `public` when every caller sees the same skills (no `@McpScopes` on any). */
    scope?: 'public' | 'private';
  };
  /**
   * The largest skill published: files and total bytes. A larger one fails startup (or the reload).
   * Default {@link SKILL_LIMITS} (512 files, 16 MiB), what every host must accept.
   */
  limits?: {
    /** Files per skill, its `SKILL.md` included. Default 512. */
    files?: number;
    /** Bytes of all of a skill's files together. Default 16 MiB. */
    bytes?: number;
  };
  /**
   * Reload the catalog when a file under `directories` changes (for development; production calls
   * `McpSkillCatalog.reload()` after deploying new skills). Default false.
   */
  watch?: boolean;
}

/** Options after defaults. */
export interface ResolvedMcpSkillsOptions {
  readonly directories: readonly string[];
  /** `skill://` or `skill://<prefix>/`. */
  readonly baseUri: string;
  readonly directoryRead: boolean;
  readonly server?: string;
  readonly cache: { readonly ttlMs?: number; readonly scope?: 'public' | 'private' };
  readonly limits: { readonly files: number; readonly bytes: number };
  readonly watch: boolean;
}

/** Thrown at startup when the options are wrong. */
export function resolveMcpSkillsOptions(options: McpSkillsOptions = {}): ResolvedMcpSkillsOptions {
  const directories = options.directories ?? [];
  if (!Array.isArray(directories) || directories.some((path) => typeof path !== 'string' || path === '')) {
    throw new Error('McpSkillsModule: directories must be an array of folder paths');
  }
  const prefix = options.prefix;
  if (prefix !== undefined && (typeof prefix !== 'string' || !/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/.test(prefix))) {
    throw new Error('McpSkillsModule: prefix must be lowercase letters, digits, dots and hyphens (e.g. bistro)');
  }
  const limits = {
    files: options.limits?.files ?? SKILL_LIMITS.files,
    bytes: options.limits?.bytes ?? SKILL_LIMITS.bytes,
  };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`McpSkillsModule: limits.${key} must be a positive whole number`);
    }
  }
  const server = attachedServer(options.server, 'McpSkillsModule');
  const { ttlMs, scope } = options.cache ?? {};
  if (ttlMs !== undefined && (!Number.isInteger(ttlMs) || ttlMs < 0)) {
    throw new Error('McpSkillsModule: cache.ttlMs must be a whole number of milliseconds >= 0');
  }
  if (scope !== undefined && scope !== 'public' && scope !== 'private') {
    throw new Error("McpSkillsModule: cache.scope must be 'public' or 'private'");
  }
  return {
    directories,
    baseUri: prefix === undefined ? 'skill://' : `skill://${prefix}/`,
    directoryRead: options.directoryRead === true,
    ...(server !== undefined && { server }),
    cache: { ...(ttlMs !== undefined && { ttlMs }), ...(scope !== undefined && { scope }) },
    limits,
    watch: options.watch === true,
  };
}
