import { NON_EMPTY_STRING, oneOf, POSITIVE_INTEGER } from './option-checks.js';
import { foldMovedOptions } from './moved-options.js';
import {
  defineSection,
  movedTo,
  nested,
  option,
  optionWith,
  required,
  resolveSection,
  sectionDefaults,
} from './option-section.js';

interface InnerOptions {
  /** A nested bound. Default 3. */
  size?: number;
}

const INNER = defineSection<InnerOptions>()({
  size: option(POSITIVE_INTEGER, 3),
});

interface OuterOptions {
  /** A required name. */
  name: string;
  /** A bound with a default. */
  count?: number;
  /** No default. */
  label?: 'a' | 'b';
  /** Resolved to another shape. */
  path?: string;
  inner?: InnerOptions;
  /** @deprecated Use `inner.size`. */
  oldSize?: number;
}

const OUTER = defineSection<OuterOptions>()({
  name: required(NON_EMPTY_STRING, '`name` is required'),
  count: option(POSITIVE_INTEGER, 10),
  label: option(oneOf(['a', 'b'])),
  path: optionWith(NON_EMPTY_STRING, '/x/', (path) => path.replace(/\/+$/, '')),
  inner: nested(INNER),
  oldSize: movedTo(POSITIVE_INTEGER, 'inner.size'),
});

// The table covers exactly the interface's keys, each with a check of its type; the compiler says so.
defineSection<InnerOptions>()(
  // @ts-expect-error -- `size` is missing
  {},
);
defineSection<InnerOptions>()({
  size: option(POSITIVE_INTEGER, 3),
  // @ts-expect-error -- `other` is not an option of the interface
  other: option(POSITIVE_INTEGER, 1),
});
defineSection<InnerOptions>()({
  // @ts-expect-error -- `size` is a number, not a string
  size: option(NON_EMPTY_STRING, 'x'),
});
defineSection<OuterOptions>()({
  ...OUTER,
  // @ts-expect-error -- a required key takes a `required` field
  name: option(NON_EMPTY_STRING, 'n'),
});
defineSection<InnerOptions>()({
  // @ts-expect-error -- an optional key cannot take a `required` field
  size: required(POSITIVE_INTEGER, '`size` is required'),
});

describe('defineSection', () => {
  it('derives the defaults: required fields undefined, optional ones without a default undefined, nested sections whole', () => {
    expect(sectionDefaults(OUTER)).toEqual({
      name: undefined,
      count: 10,
      label: undefined,
      path: '/x',
      inner: { size: 3 },
    });
    expect('oldSize' in sectionDefaults(OUTER)).toBe(false);
  });

  it('applies the values given, shaped, and types what the user writes', () => {
    const given: OuterOptions = { name: 'n', count: 2, label: 'b', path: '/y//', inner: {} };
    const problems: string[] = [];
    expect(resolveSection(OUTER, given, '', problems)).toEqual({
      name: 'n',
      count: 2,
      label: 'b',
      path: '/y',
      inner: { size: 3 },
    });
    expect(problems).toEqual([]);
  });

  it('names every problem with its path: the required field by its own text, nested ones and old spellings too', () => {
    const problems: string[] = [];
    resolveSection(OUTER, { count: 0, label: 'c', inner: { size: -1 }, oldSize: 'x' }, 'outer.', problems);
    expect(problems).toEqual([
      '`name` is required',
      '`outer.count` must be a positive integer',
      "`outer.label` must be 'a' or 'b'",
      '`outer.inner.size` must be a positive integer',
      '`outer.oldSize` must be a positive integer',
    ]);
  });
});

describe('foldMovedOptions', () => {
  const sections = [{ at: 'outer', spec: OUTER }];

  it('copies an old spelling to its new one, with a warning, without touching the object given', () => {
    const given = { outer: { oldSize: 5 } };
    const { options, warnings } = foldMovedOptions(given, sections);
    expect(options).toEqual({ outer: { oldSize: 5 }, inner: { size: 5 } });
    expect(given).toEqual({ outer: { oldSize: 5 } });
    expect(warnings).toEqual([
      'Option `outer.oldSize` is deprecated: its value is used as `inner.size`; set `inner.size` instead.',
    ]);
  });

  it('leaves a new spelling that is set, and a bad old value, where they are', () => {
    expect(foldMovedOptions({ outer: { oldSize: 5 }, inner: { size: 1 } }, sections)).toEqual({
      options: { outer: { oldSize: 5 }, inner: { size: 1 } },
      warnings: [
        'Option `outer.oldSize` is deprecated and ignored: `inner.size` is set too, and the new spelling wins. Remove `outer.oldSize`.',
      ],
    });
    expect(foldMovedOptions({ outer: { oldSize: 0 } }, sections)).toEqual({
      options: { outer: { oldSize: 0 } },
      warnings: [],
    });
  });
});
