import { skillEntry } from '@modelcontextprotocol/server/ext/skills';
import { parseSkillMarkdown, SkillFrontmatterError } from './skill-frontmatter-parser.js';

const md = (yaml: string, body = '\nBody.\n'): string => `---\n${yaml}\n---\n${body}`;
const NAME = 'name: a-skill\ndescription: Does a thing.\n';

/** Frontmatters our subset reads; the official SDK's reader (what hosts verify with) must agree on each. */
const ACCEPTED: Array<[string, string]> = [
  ['plain scalars', NAME],
  [
    'typed plain scalars (YAML 1.2 core)',
    `${NAME}a: 12\nb: -3.5\nc: 1e3\nd: true\ne: False\nf: ~\ng: null\nh: 0x1F\ni: 0o17\nj: .5\nk:`,
  ],
  ['strings that look almost typed', `${NAME}a: 12a\nb: yes\nc: 'true'\nd: "0x1F"\ne: 1.2.3\nf: v1\ng: -foo`],
  ['comments', `# leading\n${NAME}version: 2 # trailing\n# between\nurl: http://x.example/a#frag`],
  ['single quotes', `${NAME}a: 'it''s here: really'\nb: ''`],
  ['double quotes with escapes', `${NAME}a: "tab\\there \\"q\\" \\\\ \\u00e9 \\x41 \\/"`],
  ['quoted keys', `${NAME}"odd key": 1\n'other': 2`],
  [
    'literal block scalars',
    `${NAME}a: |\n  line one\n    indented\n\n  after blank\nb: |-\n  stripped\nc: |+\n  kept\n\nd: 1`,
  ],
  ['folded block scalars', `${NAME}a: >\n  one\n  two\n\n  three\nb: >-\n  x\n  y`],
  ['a block scalar with leading blank lines', `${NAME}a: |\n\n  text`],
  ['metadata, a mapping of strings', `${NAME}metadata:\n  author: ada\n  version: "1.0"\n  note: 'x: y'`],
  ['sequences of scalars', `${NAME}tags:\n  - one\n  - "two"\n  - 3\nflat:\n- a\n- b`],
  ['an empty nested value', `${NAME}empty:\nnext: 1`],
  ['CRLF line ends', `${NAME}a: 1`.replaceAll('\n', '\r\n')],
];

describe('parseSkillMarkdown', () => {
  it.each(ACCEPTED)('%s: reads what the official SDK reads', async (_case, yaml) => {
    const text = md(yaml);
    const official = await skillEntry('a-skill', { 'SKILL.md': text });
    expect(parseSkillMarkdown(text).frontmatter).toEqual(official.frontmatter);
  });

  it('gives the body after the closing line, and strips a byte order mark', () => {
    expect(parseSkillMarkdown(md(NAME, '\n# Title\n'))).toEqual({
      frontmatter: { name: 'a-skill', description: 'Does a thing.' },
      body: '\n# Title\n',
    });
    expect(parseSkillMarkdown(`\uFEFF${md(NAME)}`).frontmatter['name']).toBe('a-skill');
  });

  it.each([
    ['no opening line', '# Title\n', 'line 1: SKILL.md must begin with a "---" line'],
    ['no closing line', '---\nname: x\n', 'the frontmatter has no closing "---" line'],
    ['an anchor', md('name: &a x'), 'line 2: a value starting with "&" is not supported here; quote the value'],
    [
      'a flow collection',
      md('tags: [a, b]'),
      'line 2: a value starting with "[" is not supported here; quote the value',
    ],
    ['a duplicate key', md('a: 1\na: 2'), 'line 3: duplicate key "a"'],
    ['tab indentation', md('a:\n\tb: 1'), 'line 3: tabs cannot be used for indentation'],
    [
      'a multi-line plain value',
      md('a: one\n  two'),
      'line 3: a value continued on the next line is not supported; quote it or use a block scalar (|)',
    ],
    ['": " in a plain value', md('a: b: c'), 'line 2: a plain value cannot contain ": "; quote the value'],
    ['nesting two mappings deep', md('a:\n  b:\n    c: 1'), 'line 4: nesting deeper than one mapping is not supported'],
    ['a mapping in a sequence', md('a:\n  - b: 1'), 'line 3: only scalars are supported as sequence items'],
    [
      'an unclosed quote',
      md('a: "open'),
      'line 2: a quoted value must close on the same line (or use a block scalar |)',
    ],
    ['an unknown escape', md('a: "\\q"'), 'line 2: the escape "\\q" is not supported'],
    ['a value with no JSON form', md('a: .inf'), 'line 2: ".inf" has no JSON value; quote the value'],
    ['the __proto__ key', md('__proto__: 1'), 'line 2: the key "__proto__" is not supported'],
    [
      'a block scalar indentation indicator',
      md('a: |2\n  x'),
      'line 2: this block scalar header is not supported (use |, |-, |+, >, >- or >+)',
    ],
    [
      'more-indented lines when folding',
      md('a: >\n  x\n    y'),
      'line 4: more-indented lines in a folded (>) block scalar are not supported; use |',
    ],
  ])('refuses %s, with the line', (_case, text, message) => {
    expect(() => parseSkillMarkdown(text)).toThrow(new SkillFrontmatterError(message));
    expect(() => parseSkillMarkdown(text)).toThrow(message);
  });
});
