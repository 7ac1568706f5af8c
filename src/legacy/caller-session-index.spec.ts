import { CallerSessionIndex } from './caller-session-index.js';

const any = (): boolean => true;

describe('CallerSessionIndex', () => {
  it('keeps each caller its states least recently used first, however often one is used in a row', () => {
    const index = new CallerSessionIndex();
    index.touch('c', 'a');
    index.touch('c', 'b');
    index.touch('c', 'b');
    expect(index.oldestOf('c', any)).toBe('a');
    index.touch('c', 'a');
    index.touch('c', 'a');
    expect(index.oldestOf('c', any)).toBe('b');
    expect(index.count('c')).toBe(2);
  });

  it('counts a state removed while it was the newest again once it is used again', () => {
    const index = new CallerSessionIndex();
    index.touch('c', 'a');
    index.touch('c', 'b');
    index.remove('c', 'b');
    expect(index.count('c')).toBe(1);
    index.touch('c', 'b');
    expect(index.count('c')).toBe(2);
    expect(index.oldestOf('c', any)).toBe('a');
    index.remove('c', 'a');
    index.remove('c', 'b');
    index.touch('c', 'b');
    expect(index.count('c')).toBe(1);
  });

  it('forgets every newest state on clear', () => {
    const index = new CallerSessionIndex();
    index.touch('c', 'a');
    index.clear();
    index.touch('c', 'a');
    expect(index.count('c')).toBe(1);
  });
});
