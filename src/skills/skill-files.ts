import { createHash } from 'node:crypto';

/** A skill's files as code gives them: paths under the skill's folder (`SKILL.md`, `references/menu.md`). */
export type McpSkillFileMap = Readonly<Record<string, string | Uint8Array>>;

/** One file of a built skill: what its entry lists and what resources/read serves. */
export interface SkillFile {
  /** Path under the skill's folder, `/`-separated. */
  readonly path: string;
  readonly uri: string;
  readonly bytes: Uint8Array;
  /** The bytes as text when they are UTF-8 (served as `text`, else as a base64 `blob`). */
  readonly text: string | undefined;
  readonly mimeType: string;
  readonly digest: string;
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  csv: 'text/csv',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  py: 'text/x-python',
  sh: 'application/x-sh',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The MIME type a file's extension names; `application/octet-stream` when it names none we know. */
export function mimeTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && MIME_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** `sha256:` and the lowercase hex SHA-256 of the bytes, as skill entries carry it. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The bytes as text when decoding them as UTF-8 loses nothing (a BOM is kept), else undefined. */
export function textOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();

/** A file given by code as bytes: strings are UTF-8. */
export function bytesOf(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? encoder.encode(content) : content;
}
