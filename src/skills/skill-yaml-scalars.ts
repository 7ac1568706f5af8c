import { SkillFrontmatterError } from './skill-frontmatter.error.js';

/** How the scalars of a `SKILL.md` frontmatter are read: quoted strings, and plain ones typed as YAML 1.2 does. */

export type FrontmatterValue = string | number | boolean | null | FrontmatterValue[] | FrontmatterMap;
export interface FrontmatterMap {
  [key: string]: FrontmatterValue;
}

/** The end of every refusal a quote would fix. */
export const QUOTE_IT = 'quote the value';

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  t: '\t',
  n: '\n',
  r: '\r',
  '"': '"',
  '\\': '\\',
  '/': '/',
  ' ': ' ',
};

export function readQuoted(text: string, start: number, no: number): { value: string; end: number } | undefined {
  const quote = text[start];
  let value = '';
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index]!;
    if (quote === "'") {
      if (char !== "'") value += char;
      else if (text[index + 1] === "'") {
        value += "'";
        index++;
      } else return { value, end: index + 1 };
      continue;
    }
    if (char === '"') return { value, end: index + 1 };
    if (char !== '\\') {
      value += char;
      continue;
    }
    const code = text[index + 1] ?? '';
    const simple = ESCAPES[code];
    if (simple !== undefined) {
      value += simple;
      index++;
      continue;
    }
    const width = code === 'x' ? 2 : code === 'u' ? 4 : 0;
    const hex = text.slice(index + 2, index + 2 + width);
    if (width === 0 || !new RegExp(`^[0-9A-Fa-f]{${width}}$`).test(hex)) {
      throw new SkillFrontmatterError(`the escape "\\${code}" is not supported`, no || undefined);
    }
    value += String.fromCodePoint(Number.parseInt(hex, 16));
    index += 1 + width;
  }
  return undefined;
}

// YAML 1.2 core schema: how an unquoted scalar is typed.
const NULL = /^(?:~|null|Null|NULL)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;
const DECIMAL = /^[-+]?(?:\d+|\d*\.\d+|\d+\.\d*)(?:[eE][-+]?\d+)?$/;
const OCTAL = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const NOT_A_NUMBER = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

export function resolvePlain(text: string, no: number): FrontmatterValue {
  if (text === '' || NULL.test(text)) return null;
  if (TRUE.test(text)) return true;
  if (FALSE.test(text)) return false;
  let number: number | undefined;
  if (DECIMAL.test(text)) number = Number(text);
  else if (OCTAL.test(text)) number = Number.parseInt(text.slice(2), 8);
  else if (HEX.test(text)) number = Number.parseInt(text.slice(2), 16);
  else if (NOT_A_NUMBER.test(text)) number = Number.NaN;
  if (number === undefined) return text;
  if (!Number.isFinite(number)) throw new SkillFrontmatterError(`"${text}" has no JSON value; ${QUOTE_IT}`, no);
  return number;
}
