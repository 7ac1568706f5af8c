import { jest } from '@jest/globals';
import { McpStderrLogger } from './stderr-logger.js';

type Spy = jest.SpiedFunction<typeof process.stdout.write>;

describe('McpStderrLogger', () => {
  let stdout: Spy;
  let stderr: Spy;

  beforeEach(() => {
    stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());

  const written = (spy: Spy): string => spy.mock.calls.map((c) => String(c[0])).join('');

  it('writes every level to stderr and nothing to stdout', () => {
    const logger = new McpStderrLogger();
    logger.log('a log', 'Ctx');
    logger.warn('a warning');
    logger.debug('a debug');
    logger.verbose('a verbose');
    logger.error('an error', 'Error: stack', 'Ctx');
    logger.fatal('a fatal');
    expect(written(stdout)).toBe('');
    const text = written(stderr);
    for (const message of ['a log', 'a warning', 'a debug', 'a verbose', 'an error', 'a fatal'])
      expect(text).toContain(message);
  });

  it('keeps stdout clean in JSON mode too', () => {
    new McpStderrLogger({ json: true }).log('as json');
    expect(written(stdout)).toBe('');
    expect(written(stderr)).toContain('"message":"as json"');
  });

  it('respects the levels it is given', () => {
    const logger = new McpStderrLogger({ logLevels: ['error'] });
    logger.log('hidden');
    logger.error('shown');
    expect(written(stderr)).not.toContain('hidden');
    expect(written(stderr)).toContain('shown');
  });

  it('prints no color codes when stderr is not a terminal', () => {
    const isTTY = process.stderr.isTTY;
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true });
    try {
      new McpStderrLogger().log('plain');
    } finally {
      Object.defineProperty(process.stderr, 'isTTY', { value: isTTY, configurable: true });
    }
    expect(written(stderr)).not.toContain('\u001b[');
  });
});
