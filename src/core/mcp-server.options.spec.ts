import { resolveServerOptions } from './mcp-server.options.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('resolveServerOptions: icons', () => {
  it('keeps valid icons, frozen', () => {
    const problems: string[] = [];
    const options = resolveServerOptions({ name: 's', version: '1', icons: [{ src: PNG, theme: 'dark' }] }, problems);
    expect(problems).toEqual([]);
    expect(options.icons).toEqual([{ src: PNG, theme: 'dark' }]);
    expect(Object.isFrozen(options.icons)).toBe(true);
    expect(resolveServerOptions({ name: 's', version: '1' }, problems).icons).toBeUndefined();
  });

  it('names the bad field of a bad icon', () => {
    const problems: string[] = [];
    const options = resolveServerOptions({ name: 's', version: '1', icons: [{ src: 'http://a/b.png' }] }, problems);
    expect(problems).toEqual([expect.stringMatching(/^`icons\[0\]\.src` must be an https: URL/)]);
    expect(options.icons).toBeUndefined();
    const notArray: string[] = [];
    resolveServerOptions({ name: 's', version: '1', icons: 'x' as never }, notArray);
    expect(notArray).toEqual(['`icons` must be an array of icons']);
  });
});
