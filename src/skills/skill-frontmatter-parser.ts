/**
 * Reads a `SKILL.md`: its YAML frontmatter as JSON and the markdown after it.
 *
 * Hosts compare the frontmatter they parse out of the file with the entry the server lists, so the
 * server must read it exactly as a YAML 1.2 parser (core schema) would. Rather than depend on a YAML
 * library, this reads the small subset skills use — a mapping of keys to plain, quoted or block
 * scalars, one level of nested mapping (`metadata`) and sequences of scalars — and refuses anything
 * else with the line it is on, so nothing is ever read differently from the host.
 */

import { SkillFrontmatterError } from './skill-frontmatter.error.js';
import {
  type FrontmatterMap,
  type FrontmatterValue,
  QUOTE_IT,
  readQuoted,
  resolvePlain,
} from './skill-yaml-scalars.js';

export { SkillFrontmatterError } from './skill-frontmatter.error.js';
export type { FrontmatterMap, FrontmatterValue } from './skill-yaml-scalars.js';

export interface ParsedSkillMarkdown {
  readonly frontmatter: FrontmatterMap;
  readonly body: string;
}

interface Line {
  readonly no: number;
  readonly indent: number;
  /** The line without its indentation. */
  readonly text: string;
  readonly raw: string;
}

/** Splits and reads `SKILL.md`; throws {@link SkillFrontmatterError}. */
export function parseSkillMarkdown(markdown: string): ParsedSkillMarkdown {
  let text = markdown.replaceAll('\r\n', '\n');
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  if (!text.startsWith('---\n')) throw new SkillFrontmatterError('SKILL.md must begin with a "---" line', 1);
  const rest = text.slice(4);
  const close = /^---[\t ]*$/m.exec(rest);
  if (close === null) throw new SkillFrontmatterError('the frontmatter has no closing "---" line');
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith('\n')) body = body.slice(1);
  const raws = rest.slice(0, close.index).split('\n');
  if (raws.at(-1) === '') raws.pop();
  const lines = raws.map((raw, index): Line => {
    const indent = /^ */.exec(raw)![0].length;
    return { no: index + 2, indent, text: raw.slice(indent), raw };
  });
  return { frontmatter: new SubsetReader(lines).document(), body };
}

class SubsetReader {
  private index = 0;

  constructor(private readonly lines: readonly Line[]) {}

  document(): FrontmatterMap {
    const first = this.next();
    if (first === undefined) return {};
    if (first.indent !== 0) throw new SkillFrontmatterError('the frontmatter must not be indented', first.no);
    const map = this.mapping(0, 0);
    const extra = this.next();
    if (extra !== undefined) throw new SkillFrontmatterError('unexpected indentation', extra.no);
    return map;
  }

  /** The next line that is not blank or a comment, without consuming it. */
  private next(): Line | undefined {
    while (this.index < this.lines.length) {
      const line = this.lines[this.index]!;
      if (line.text.trim() === '' || line.text.startsWith('#')) {
        this.index++;
        continue;
      }
      if (line.text.startsWith('\t')) throw new SkillFrontmatterError('tabs cannot be used for indentation', line.no);
      return line;
    }
    return undefined;
  }

  private mapping(indent: number, depth: number): FrontmatterMap {
    const map: FrontmatterMap = {};
    for (let line = this.next(); line !== undefined && line.indent >= indent; line = this.next()) {
      if (line.indent > indent) throw new SkillFrontmatterError('unexpected indentation', line.no);
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(map, key)) throw new SkillFrontmatterError(`duplicate key "${key}"`, line.no);
      this.index++;
      map[key] = this.value(rest, line, indent, depth);
    }
    return map;
  }

  private value(rest: string, line: Line, indent: number, depth: number): FrontmatterValue {
    if (rest === '' || rest.startsWith('#')) return this.nested(indent, depth);
    const first = rest[0]!;
    if (first === '|' || first === '>') return this.blockScalar(rest, line, indent);
    if (first === '"' || first === "'") return quotedAlone(rest, line.no);
    if ('[{&*!%@`,]}?'.includes(first) || isItem(rest)) {
      throw new SkillFrontmatterError(`a value starting with "${first}" is not supported here; ${QUOTE_IT}`, line.no);
    }
    return this.plain(rest, line, indent);
  }

  /** What follows `key:` on the next lines: a mapping, a sequence of scalars, or nothing (null). */
  private nested(indent: number, depth: number): FrontmatterValue {
    const next = this.next();
    if (next === undefined || next.indent < indent) return null;
    if (isItem(next.text)) return this.sequence(next.indent);
    if (next.indent === indent) return null;
    if (depth >= 1) throw new SkillFrontmatterError('nesting deeper than one mapping is not supported', next.no);
    return this.mapping(next.indent, depth + 1);
  }

  private sequence(indent: number): FrontmatterValue[] {
    const items: FrontmatterValue[] = [];
    for (let line = this.next(); line !== undefined && line.indent >= indent; line = this.next()) {
      if (line.indent > indent || !isItem(line.text)) {
        if (line.indent === indent) break;
        throw new SkillFrontmatterError('unexpected indentation', line.no);
      }
      const rest = line.text.slice(1).replace(/^ +/, '');
      if (rest.startsWith('\t')) throw new SkillFrontmatterError('tabs cannot be used for indentation', line.no);
      if (rest === '' || rest.startsWith('#') || isItem(rest) || keyOf(rest) !== undefined) {
        throw new SkillFrontmatterError('only scalars are supported as sequence items', line.no);
      }
      this.index++;
      const first = rest[0]!;
      if (first === '"' || first === "'") items.push(quotedAlone(rest, line.no));
      else if ('|>[{&*!%@`,]}?'.includes(first)) {
        throw new SkillFrontmatterError(`a value starting with "${first}" is not supported here; ${QUOTE_IT}`, line.no);
      } else items.push(this.plain(rest, line, indent));
    }
    return items;
  }

  /** A plain scalar on one line (continuation lines would fold, which the subset leaves out). */
  private plain(rest: string, line: Line, indent: number): FrontmatterValue {
    const comment = /[\t ]#/.exec(rest);
    const text = (comment === null ? rest : rest.slice(0, comment.index)).replace(/[\t ]+$/, '');
    if (/:(?:[\t ]|$)/.test(text))
      throw new SkillFrontmatterError(`a plain value cannot contain ": "; ${QUOTE_IT}`, line.no);
    const following = this.lines[this.index];
    if (following !== undefined && following.indent > indent && following.text.trim() !== '') {
      if (!following.text.startsWith('#')) {
        throw new SkillFrontmatterError(
          'a value continued on the next line is not supported; quote it or use a block scalar (|)',
          following.no,
        );
      }
    }
    return resolvePlain(text, line.no);
  }

  /** `|` keeps line breaks, `>` folds them; `-` strips the final one, `+` keeps every trailing one. */
  private blockScalar(header: string, line: Line, indent: number): string {
    const match = /^([|>])([+-]?)(?:[\t ]+#.*)?[\t ]*$/.exec(header);
    if (match === null)
      throw new SkillFrontmatterError(
        'this block scalar header is not supported (use |, |-, |+, >, >- or >+)',
        line.no,
      );
    const folded = match[1] === '>';
    const chomp = match[2]!;
    const contents: string[] = [];
    let contentIndent = -1;
    let leadingWidth = 0;
    while (this.index < this.lines.length) {
      const next = this.lines[this.index]!;
      const blank = next.raw.trim() === '';
      if (blank) {
        if (next.raw.includes('\t')) throw new SkillFrontmatterError('tabs cannot be used for indentation', next.no);
        if (contentIndent === -1) leadingWidth = Math.max(leadingWidth, next.indent);
        else if (next.indent > contentIndent) {
          throw new SkillFrontmatterError(
            'a blank line with trailing spaces in a block scalar is not supported',
            next.no,
          );
        }
        contents.push('');
        this.index++;
        continue;
      }
      if (next.indent <= indent) break;
      if (next.text.startsWith('\t')) throw new SkillFrontmatterError('tabs cannot be used for indentation', next.no);
      if (contentIndent === -1) {
        contentIndent = next.indent;
        if (leadingWidth > contentIndent) {
          throw new SkillFrontmatterError('a leading blank line is indented more than the block scalar', next.no);
        }
      }
      if (next.indent < contentIndent)
        throw new SkillFrontmatterError('a block scalar line is indented less than its first line', next.no);
      const content = next.raw.slice(contentIndent);
      if (folded && /^[\t ]/.test(content)) {
        throw new SkillFrontmatterError(
          'more-indented lines in a folded (>) block scalar are not supported; use |',
          next.no,
        );
      }
      contents.push(content);
      this.index++;
    }
    if (contentIndent === -1 && contents.length > 0) {
      throw new SkillFrontmatterError('a block scalar of blank lines only is not supported', line.no);
    }
    let trailing = 0;
    while (contents.length > 0 && contents.at(-1) === '') {
      contents.pop();
      trailing++;
    }
    let value = '';
    let blanks = 0;
    let started = false;
    for (const content of contents) {
      if (content === '') {
        blanks++;
        continue;
      }
      if (!started) value += '\n'.repeat(blanks);
      else if (folded) value += blanks === 0 ? ' ' : '\n'.repeat(blanks);
      else value += '\n'.repeat(blanks + 1);
      value += content;
      started = true;
      blanks = 0;
    }
    if (chomp === '+') value += '\n'.repeat(started ? trailing + 1 : trailing);
    else if (chomp === '' && started) value += '\n';
    return value;
  }
}

function isItem(text: string): boolean {
  return /^-(?:[\t ]|$)/.test(text);
}

/** `key: rest` of a mapping line; the key must be a plain or quoted string. */
function splitKey(line: Line): { key: string; rest: string } {
  if (isItem(line.text)) throw new SkillFrontmatterError('expected "key: value"', line.no);
  const found = keyOf(line.text);
  if (found === undefined) throw new SkillFrontmatterError('expected "key: value"', line.no);
  if (found.key === '__proto__') throw new SkillFrontmatterError('the key "__proto__" is not supported', line.no);
  return found;
}

function keyOf(text: string): { key: string; rest: string } | undefined {
  const first = text[0];
  if (first === '"' || first === "'") {
    const quoted = readQuoted(text, 0, 0);
    if (quoted === undefined) return undefined;
    const after = text.slice(quoted.end);
    return after === ':' || /^:[\t ]/.test(after) ? { key: quoted.value, rest: after.slice(1).trim() } : undefined;
  }
  if (first === undefined || '[]{}&*!|>%@`#,?-'.includes(first)) return undefined;
  const match = /^([^#]*?)[\t ]*:(?:[\t ]+(.*)|)$/.exec(text);
  if (match === null || match[1] === '' || /:[\t ]/.test(match[1]!) || /[\t ]#/.test(match[1]!)) return undefined;
  const key = match[1]!;
  if (typeof resolvePlain(key, 0) !== 'string') return undefined;
  return { key, rest: (match[2] ?? '').trim() };
}

/** A quoted scalar that must be all there is on its line (apart from a comment). */
function quotedAlone(text: string, no: number): string {
  const quoted = readQuoted(text, 0, no);
  if (quoted === undefined) {
    throw new SkillFrontmatterError('a quoted value must close on the same line (or use a block scalar |)', no);
  }
  const after = text.slice(quoted.end);
  if (after.trim() !== '' && !/^[\t ]+#/.test(after))
    throw new SkillFrontmatterError('unexpected text after the value', no);
  return quoted.value;
}
