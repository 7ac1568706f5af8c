import { jest } from '@jest/globals';
import { redirectConsoleToStderr } from './console-redirect.js';

describe('redirectConsoleToStderr', () => {
  afterEach(() => jest.restoreAllMocks());

  it('sends console.log, info, debug and table to stderr until restored', () => {
    const original = console.log;
    const restore = redirectConsoleToStderr();
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      console.log('one');
      console.info('two');
      console.debug('three');
      console.table([{ a: 1 }]);
    } finally {
      restore();
    }
    expect(stdout).not.toHaveBeenCalled();
    const text = stderr.mock.calls.map((c) => String(c[0])).join('');
    expect(text).toContain('one\n');
    expect(text).toContain('two\n');
    expect(text).toContain('three\n');
    expect(console.log).toBe(original);
  });

  it('restores only once', () => {
    const original = console.info;
    const restore = redirectConsoleToStderr();
    restore();
    const replacement = jest.fn();
    console.info = replacement;
    restore();
    expect(console.info).toBe(replacement);
    console.info = original;
  });
});
