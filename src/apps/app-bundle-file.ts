import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** A bundle file's HTML, read once at startup, with what hosts may use as cache hints. */
export interface AppBundleFile {
  readonly path: string;
  readonly html: string;
  readonly bytes: number;
  readonly modified: Date;
}

/**
 * Reads the built HTML of an app. Fails startup, naming the app and the file, when the file is
 * missing, larger than `maxBytes`, or not an HTML document.
 */
export function readAppBundle(bundle: string, uri: string, maxBytes: number): AppBundleFile {
  const path = resolve(bundle);
  let size: number;
  let modified: Date;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
    modified = stat.mtime;
  } catch {
    throw new Error(
      `McpAppsModule: the bundle of ${uri} is missing: ${path} (relative paths resolve against the working directory, ${process.cwd()}). Build the app first.`,
    );
  }
  if (size > maxBytes) {
    throw new Error(
      `McpAppsModule: the bundle of ${uri} (${path}) is ${size} bytes, more than maxBundleBytes (${maxBytes}).`,
    );
  }
  const html = readFileSync(path, 'utf8');
  if (!/<html[\s>]/i.test(html)) {
    throw new Error(`McpAppsModule: the bundle of ${uri} (${path}) is not an HTML document (no <html> element).`);
  }
  return { path, html, bytes: size, modified };
}
