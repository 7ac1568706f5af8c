import { frontmatterProblems } from './skill-entry-rules.js';
import { type FrontmatterMap, parseSkillMarkdown, SkillFrontmatterError } from './skill-frontmatter-parser.js';
import { digestOf, mimeTypeOf, type SkillFile, textOf } from './skill-files.js';

/** The MIME type of a directory resource (resources/directory/read). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/**
 * One skill as `skills/list` and `skills/get` carry it: the URI of its `SKILL.md`, the frontmatter
 * verbatim, and every file with its size and SHA-256 digest.
 *
 * @publicApi
 */
export interface McpSkillEntry {
  /** The URI of the skill's `SKILL.md`, e.g. `skill://book-a-table/SKILL.md`. */
  readonly uri: string;
  /** The `SKILL.md` frontmatter as JSON, verbatim. */
  readonly frontmatter: Readonly<{ name: string; description: string } & Record<string, unknown>>;
  /**
   * Every file of the skill (its `SKILL.md` included), sorted by URI: `sha256:<hex>` digest and size
   * in bytes; `"dynamic"` for a skill whose files are generated per read.
   */
  readonly resources:
    ReadonlyArray<{ readonly uri: string; readonly digest: string; readonly size: number }> | 'dynamic';
}

/** A child of a skill directory, as resources/directory/read lists it. */
export interface SkillDirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

/** A skill ready to serve: its entry, its files (bytes included), and its directories' children. */
export interface BuiltSkill {
  readonly name: string;
  readonly entry: McpSkillEntry;
  readonly files: readonly SkillFile[];
  /** Keyed by directory URI (the skill's root has no trailing slash). */
  readonly directories: ReadonlyMap<string, readonly SkillDirectoryChild[]>;
}

export interface SkillBuildInput {
  /** How errors name the skill's folder: a path on disk, or the provider method that gave the files. */
  readonly where: string;
  /** The folder's name, which the frontmatter name must equal; absent for skills from code. */
  readonly folderName?: string;
  readonly files: ReadonlyArray<{ readonly path: string; readonly bytes: Uint8Array }>;
  /** `skill://`, or `skill://<prefix>/`. */
  readonly baseUri: string;
  readonly limits: { readonly files: number; readonly bytes: number };
}

/**
 * Thrown at startup (or by `McpSkillCatalog.reload()`) for a skill that cannot be published: the
 * message names the file (or folder, or provider method) and the rule it breaks.
 *
 * @publicApi
 */
export class McpSkillDefinitionError extends Error {
  constructor(where: string, problem: string) {
    super(`McpSkillsModule: ${where}: ${problem}`);
    this.name = 'McpSkillDefinitionError';
  }
}

/** Checks one skill's files against the extension's rules and limits, and hashes them. */
export function buildSkill(input: SkillBuildInput): BuiltSkill {
  const { where, files, limits } = input;
  const fail = (path: string | undefined, problem: string): never => {
    throw new McpSkillDefinitionError(path === undefined ? where : `${where}/${path}`, problem);
  };
  const manifest = files.find((file) => file.path === 'SKILL.md');
  if (manifest === undefined) {
    const cased = files.find((file) => file.path.toLowerCase() === 'skill.md');
    fail(undefined, cased ? `has ${cased.path}; the file must be named SKILL.md` : 'has no SKILL.md');
  }
  if (files.length > limits.files) {
    fail(undefined, `has ${files.length} files; a skill may have at most ${limits.files} (limits.files)`);
  }
  const total = files.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  if (total > limits.bytes) {
    fail(undefined, `has ${total} bytes of files; a skill may have at most ${limits.bytes} (limits.bytes)`);
  }
  const { name, frontmatter } = checkedManifest(where, manifest!.bytes, input.folderName);
  const root = `${input.baseUri}${name}`;
  const built: SkillFile[] = [];
  for (const file of [...files].sort((a, b) => compare(a.path, b.path))) {
    const segments = file.path.split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
      fail(file.path, 'is not a plain relative path');
    }
    const uri = `${root}/${segments.map(encodeURIComponent).join('/')}`;
    if (!roundTrips(uri)) fail(file.path, 'has a name that cannot be written in a URI as it is; rename it');
    built.push({
      path: file.path,
      uri,
      bytes: file.bytes,
      text: textOf(file.bytes),
      mimeType: mimeTypeOf(file.path),
      digest: digestOf(file.bytes),
    });
  }
  const entry: McpSkillEntry = deepFreeze({
    uri: `${root}/SKILL.md`,
    frontmatter: frontmatter as McpSkillEntry['frontmatter'],
    resources: built.map((file) => ({ uri: file.uri, digest: file.digest, size: file.bytes.byteLength })),
  });
  return { name, entry, files: built, directories: directoriesOf(root, built) };
}

/**
 * A skill whose files a provider method generates per read: only its `SKILL.md` is checked (now),
 * and the entry lists `"dynamic"`.
 */
export function buildDynamicSkill(where: string, manifest: Uint8Array, baseUri: string): BuiltSkill {
  const { name, frontmatter } = checkedManifest(where, manifest);
  const entry: McpSkillEntry = deepFreeze({
    uri: `${baseUri}${name}/SKILL.md`,
    frontmatter: frontmatter as McpSkillEntry['frontmatter'],
    resources: 'dynamic',
  });
  return { name, entry, files: [], directories: new Map() };
}

/** The frontmatter of a `SKILL.md`, checked against the extension's rules; its name names the skill. */
function checkedManifest(
  where: string,
  bytes: Uint8Array,
  folderName?: string,
): { name: string; frontmatter: FrontmatterMap } {
  const markdown = textOf(bytes);
  if (markdown === undefined) throw new McpSkillDefinitionError(`${where}/SKILL.md`, 'is not UTF-8 text');
  let frontmatter: FrontmatterMap;
  try {
    frontmatter = parseSkillMarkdown(markdown).frontmatter;
  } catch (error) {
    if (!(error instanceof SkillFrontmatterError)) throw error;
    throw new McpSkillDefinitionError(`${where}/SKILL.md`, error.message);
  }
  const name = folderName ?? (typeof frontmatter['name'] === 'string' ? frontmatter['name'] : '');
  const problems = frontmatterProblems(frontmatter, name);
  if (problems.length > 0) throw new McpSkillDefinitionError(`${where}/SKILL.md`, problems.join('; '));
  return { name, frontmatter };
}

/** Every directory of the skill (its root included) with its direct children, sorted by URI. */
function directoriesOf(root: string, files: readonly SkillFile[]): Map<string, SkillDirectoryChild[]> {
  const directories = new Map<string, Map<string, SkillDirectoryChild>>([[root, new Map()]]);
  for (const file of files) {
    const segments = file.path.split('/');
    let parent = root;
    for (const [depth, segment] of segments.entries()) {
      const uri = `${parent}/${encodeURIComponent(segment)}`;
      const children = directories.get(parent)!;
      if (depth === segments.length - 1) {
        children.set(uri, { uri, name: segment, mimeType: file.mimeType, size: file.bytes.byteLength });
      } else {
        children.set(uri, { uri, name: segment, mimeType: DIRECTORY_MIME_TYPE });
        if (!directories.has(uri)) directories.set(uri, new Map());
      }
      parent = uri;
    }
  }
  return new Map(
    [...directories].map(([uri, children]) => [uri, [...children.values()].sort((a, b) => compare(a.uri, b.uri))]),
  );
}

/** Code-unit order: the same on every node and platform. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A host finds a file by the URI's parsed form; only URIs that parse to themselves are published. */
function roundTrips(uri: string): boolean {
  try {
    return new URL(uri).href === uri;
  } catch {
    return false;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
