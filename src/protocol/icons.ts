/**
 * An icon a host may show for a server, tool, prompt or resource (SEP-973, MCP 2026-07-28; the
 * 2025-11-25 schema has the same shape). Checked at startup: see {@link checkIcons}.
 *
 * @example
 * ```ts
 * const icon: McpIcon = { src: 'https://example.com/orders-48.png', mimeType: 'image/png', sizes: ['48x48'] };
 * ```
 *
 * @publicApi
 */
export interface McpIcon {
  /** Where the image is: an `https:` URL, or a `data:` URI of an image (`data:image/png;base64,…`). */
  src: string;
  /** The image's media type, e.g. `image/png` or `image/svg+xml`, when `src` does not make it plain. */
  mimeType?: string;
  /** The sizes the image is drawn for, each `WIDTHxHEIGHT` (`48x48`) or `any` for a scalable image. */
  sizes?: string[];
  /** The theme the icon is drawn for: `light` (a light background) or `dark`. */
  theme?: 'light' | 'dark';
}

const SIZE = /^(?:[1-9][0-9]{0,4}x[1-9][0-9]{0,4}|any)$/;
/** `data:` followed by an image media type (`image/png`, `image/svg+xml`), then parameters and `,`. */
const IMAGE_DATA_URI = /^data:image\/[a-z0-9][a-z0-9.+-]*(?:;[^,]*)?,/i;
const KEYS = new Set(['src', 'mimeType', 'sizes', 'theme']);

/**
 * The first problem of a list of icons, worded to follow the name of the list, `path`
 * ('icons[0].src must be …'), or undefined when the list is valid.
 */
export function iconsProblem(value: unknown, path = 'icons'): string | undefined {
  if (!Array.isArray(value)) return `${path} must be an array of icons ({ src, mimeType?, sizes?, theme? })`;
  for (let i = 0; i < value.length; i++) {
    const problem = iconProblem(value[i], `${path}[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * The icons of `owner` (e.g. `MCP tool "x" (Class.method)`), checked and copied to a frozen list
 * of frozen icons, or undefined when none were given; a bad list throws an `Error` naming the
 * owner and the icon's field, which stops the application at startup.
 */
export function checkIcons(value: unknown, owner: string): readonly McpIcon[] | undefined {
  if (value === undefined) return undefined;
  const problem = iconsProblem(value);
  if (problem !== undefined) throw new Error(`${owner}: ${problem}.`);
  return frozenIcons(value as readonly McpIcon[]);
}

/** A frozen copy of icons that passed {@link iconsProblem}: each icon's known fields only. */
export function frozenIcons(icons: readonly McpIcon[]): readonly McpIcon[] {
  return Object.freeze(
    icons.map((icon) =>
      Object.freeze({
        src: icon.src,
        ...(icon.mimeType !== undefined && { mimeType: icon.mimeType }),
        ...(icon.sizes !== undefined && { sizes: Object.freeze([...icon.sizes]) as string[] }),
        ...(icon.theme !== undefined && { theme: icon.theme }),
      }),
    ),
  );
}

function iconProblem(icon: unknown, path: string): string | undefined {
  if (typeof icon !== 'object' || icon === null || Array.isArray(icon)) {
    return `${path} must be an object { src, mimeType?, sizes?, theme? }`;
  }
  const fields = icon as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !KEYS.has(key));
  if (unknown !== undefined)
    return `${path} has an unknown field "${unknown}" (an icon has src, mimeType, sizes, theme)`;
  const { src, mimeType, sizes, theme } = fields;
  if (!isIconSource(src)) {
    return `${path}.src must be an https: URL or a data: URI of an image (data:image/…), got ${preview(src)}`;
  }
  if (mimeType !== undefined && (typeof mimeType !== 'string' || mimeType.trim() === '')) {
    return `${path}.mimeType must be a non-empty string such as 'image/png'`;
  }
  if (sizes !== undefined) {
    if (!Array.isArray(sizes)) return `${path}.sizes must be an array of sizes such as ['48x48'] or ['any']`;
    const bad = sizes.findIndex((size) => typeof size !== 'string' || !SIZE.test(size));
    if (bad >= 0)
      return `${path}.sizes[${bad}] must be WIDTHxHEIGHT (e.g. '48x48') or 'any', got ${preview(sizes[bad])}`;
  }
  if (theme !== undefined && theme !== 'light' && theme !== 'dark') {
    return `${path}.theme must be 'light' or 'dark'`;
  }
  return undefined;
}

function isIconSource(src: unknown): src is string {
  if (typeof src !== 'string') return false;
  if (IMAGE_DATA_URI.test(src)) return true;
  if (!URL.canParse(src)) return false;
  const url = new URL(src);
  return url.protocol === 'https:' && url.hostname !== '';
}

/** A developer's value in a startup message, short: a data URI can be long. */
function preview(value: unknown): string {
  if (typeof value !== 'string') return value === undefined ? 'nothing' : typeof value;
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}
