import { checkIcons, iconsProblem } from './icons.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('iconsProblem', () => {
  it.each([
    [[]],
    [[{ src: 'https://example.com/a.png' }]],
    [[{ src: PNG, mimeType: 'image/png', sizes: ['48x48', 'any'], theme: 'dark' }]],
    [[{ src: 'data:image/svg+xml;utf8,<svg/>', theme: 'light' }]],
  ])('accepts %j', (icons) => {
    expect(iconsProblem(icons)).toBeUndefined();
  });

  it.each([
    ['not an array', { src: 'https://example.com/a.png' }, /^icons must be an array of icons/],
    ['an icon that is not an object', ['https://example.com/a.png'], /^icons\[0\] must be an object/],
    ['an unknown field', [{ src: 'https://example.com/a.png', url: 'x' }], /^icons\[0\] has an unknown field "url"/],
    ['no src', [{ mimeType: 'image/png' }], /^icons\[0\]\.src must be an https: URL or a data: URI.*got nothing$/],
    ['an http: src', [{ src: 'http://example.com/a.png' }], /^icons\[0\]\.src must be .*got "http:/],
    ['a relative src', [{ src: '/a.png' }], /^icons\[0\]\.src must be/],
    ['a javascript: src', [{ src: 'javascript:alert(1)' }], /^icons\[0\]\.src must be/],
    ['a data: URI of text', [{ src: 'data:text/html,<b>x</b>' }], /^icons\[0\]\.src must be/],
    ['an empty mimeType', [{ src: PNG, mimeType: ' ' }], /^icons\[0\]\.mimeType must be a non-empty string/],
    ['sizes not an array', [{ src: PNG, sizes: '48x48' }], /^icons\[0\]\.sizes must be an array/],
    ['a bad size', [{ src: PNG, sizes: ['48x48', '48'] }], /^icons\[0\]\.sizes\[1\] must be WIDTHxHEIGHT.*got "48"$/],
    ['a bad theme', [{ src: PNG, theme: 'blue' }], /^icons\[0\]\.theme must be 'light' or 'dark'$/],
    ['the second icon bad', [{ src: PNG }, { src: 'ftp://x/a.png' }], /^icons\[1\]\.src must be/],
  ])('refuses %s', (_what, icons, message) => {
    expect(iconsProblem(icons)).toMatch(message);
  });

  it('cuts a long src it quotes', () => {
    const problem = iconsProblem([{ src: `data:text/plain,${'x'.repeat(10_000)}` }]);
    expect(problem!.length).toBeLessThan(200);
  });
});

describe('checkIcons', () => {
  it('returns a frozen copy with the known fields, or undefined when none', () => {
    const given = [{ src: PNG, sizes: ['any'] }];
    const icons = checkIcons(given, 'MCP tool "x" (A.b)');
    expect(icons).toEqual(given);
    expect(icons).not.toBe(given);
    expect(Object.isFrozen(icons) && Object.isFrozen(icons![0]) && Object.isFrozen(icons![0]!.sizes)).toBe(true);
    expect(checkIcons(undefined, 'x')).toBeUndefined();
  });

  it('throws naming the owner and the field', () => {
    expect(() => checkIcons([{ src: 'http://a/b.png' }], 'MCP tool "x" (A.b)')).toThrow(
      /^MCP tool "x" \(A\.b\): icons\[0\]\.src must be an https: URL or a data: URI/,
    );
  });
});
