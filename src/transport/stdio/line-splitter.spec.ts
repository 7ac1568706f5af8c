import { type LineEvent, LineSplitter } from './line-splitter.js';

const text = (events: LineEvent[]): string[] =>
  events.map((e) => (e.kind === 'line' ? e.bytes.toString('utf8') : '<oversized>'));

describe('LineSplitter', () => {
  it('cuts lines at \\n, strips a trailing \\r and skips blank lines', () => {
    const splitter = new LineSplitter(100);
    expect(text(splitter.push(Buffer.from('a\r\n\n  \r\nb\nc')))).toEqual(['a', 'b']);
    expect(text(splitter.push(Buffer.from('d\n')))).toEqual(['cd']);
    expect(text(splitter.end())).toEqual([]);
  });

  it('hands out the last line at the end even without a newline', () => {
    const splitter = new LineSplitter(100);
    expect(splitter.push(Buffer.from('tail'))).toEqual([]);
    expect(text(splitter.end())).toEqual(['tail']);
  });

  it('accepts a line of exactly the limit, CR excluded, across chunks', () => {
    const splitter = new LineSplitter(4);
    expect(text(splitter.push(Buffer.from('ab')))).toEqual([]);
    expect(text(splitter.push(Buffer.from('cd\r')))).toEqual([]);
    expect(text(splitter.push(Buffer.from('\nabcd\n')))).toEqual(['abcd', 'abcd']);
  });

  it('reports an oversized line once, as soon as it passes the limit, and drops the rest of it', () => {
    const splitter = new LineSplitter(4);
    expect(text(splitter.push(Buffer.from('abc')))).toEqual([]);
    expect(text(splitter.push(Buffer.from('de')))).toEqual(['<oversized>']);
    expect(text(splitter.push(Buffer.from('x'.repeat(10_000))))).toEqual([]);
    expect(text(splitter.push(Buffer.from('yy\nok\n')))).toEqual(['ok']);
  });

  it('holds at most the limit of one line while discarding (no unbounded buffer)', () => {
    const splitter = new LineSplitter(8);
    splitter.push(Buffer.from('z'.repeat(9)));
    for (let i = 0; i < 100; i++) splitter.push(Buffer.alloc(1024, 0x7a));
    expect((splitter as unknown as { pendingBytes: number }).pendingBytes).toBe(0);
  });

  it('reports a line whose CR was not its end', () => {
    const splitter = new LineSplitter(4);
    expect(text(splitter.push(Buffer.from('abcd\r')))).toEqual([]);
    expect(text(splitter.push(Buffer.from('e\n')))).toEqual(['<oversized>']);
  });
});
