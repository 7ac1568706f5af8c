import type { SectionSpec } from './option-section.js';

/** One section of the options and where it sits in them: '' for the top level, else its key ('mrtr'). */
export interface MovedOptionsSection {
  readonly at: string;
  readonly spec: SectionSpec;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The options with every deprecated spelling (a `movedTo` field) that was set copied to its new
 * spelling, unless that one is set too (the new spelling wins; among two old spellings of one
 * option, the one listed first in its section wins), and one warning per old spelling set. The
 * old spellings stay where they are (each is still checked under its own name); `options` is not
 * changed. A value that fails its check is not copied: its problem names the spelling it was set under.
 */
export function foldMovedOptions(
  options: object,
  sections: readonly MovedOptionsSection[],
): { options: Record<string, unknown>; warnings: string[] } {
  const out: Record<string, unknown> = { ...options };
  const warnings: string[] = [];
  /** The spelling that gave each new one its value, when an old one did. */
  const filledBy = new Map<string, string>();
  const copied = new Set<string>();
  for (const { at, spec } of sections) {
    const section = at === '' ? out : out[at];
    if (!isObject(section)) continue;
    for (const [key, field] of Object.entries(spec)) {
      const moved = field.movedTo;
      const value = section[key];
      if (moved === undefined || value === undefined) continue;
      const old = at === '' ? key : `${at}.${key}`;
      const note = moved.note ? ` (${moved.note})` : '';
      const [parent, name] = splitPath(moved.path);
      const existing = out[parent] ?? {};
      if (!isObject(existing) || !field.check.test(value)) continue;
      let target = existing;
      const winner = target[name] !== undefined ? (filledBy.get(moved.path) ?? moved.path) : undefined;
      if (winner !== undefined) {
        const why =
          winner === moved.path ? 'the new spelling wins' : `it wins (both are old spellings of \`${moved.path}\`)`;
        warnings.push(
          `Option \`${old}\` is deprecated and ignored: \`${winner}\` is set too, and ${why}. Remove \`${old}\`.`,
        );
        continue;
      }
      // The first write into a section copies it, so that the application's object stays as it was.
      if (!copied.has(parent)) {
        target = { ...target };
        out[parent] = target;
        copied.add(parent);
      }
      target[name] = value;
      filledBy.set(moved.path, old);
      warnings.push(
        `Option \`${old}\` is deprecated: its value is used as \`${moved.path}\`${note}; set \`${moved.path}\` instead.`,
      );
    }
  }
  return { options: out, warnings };
}

/** 'limits.maxSessions' -> ['limits', 'maxSessions']: moved options always land in a section. */
function splitPath(path: string): [string, string] {
  const dot = path.indexOf('.');
  return [path.slice(0, dot), path.slice(dot + 1)];
}
