const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** What one chunk of input turned into, in order. */
export type LineEvent = { readonly kind: 'line'; readonly bytes: Buffer } | { readonly kind: 'oversized' };

/**
 * Cuts a byte stream into newline-delimited lines without ever holding more than `maxLineBytes`
 * of one line: a line that grows past the limit is reported once (`oversized`) as soon as it does,
 * and its remaining bytes are dropped up to the next newline. A trailing `\r` is removed, so CRLF
 * input works; blank lines are skipped.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.append(chunk.subarray(start, end), events);
      if (newline === -1) break;
      this.finishLine(events);
      start = newline + 1;
    }
    return events;
  }

  /** The input ended: a last line without its newline still counts. */
  end(): LineEvent[] {
    const events: LineEvent[] = [];
    this.finishLine(events);
    return events;
  }

  private append(part: Buffer, events: LineEvent[]): void {
    if (this.discarding || part.length === 0) return;
    // A CR that may end the line does not count against the limit.
    const counted = part[part.length - 1] === CARRIAGE_RETURN ? part.length - 1 : part.length;
    if (this.pendingBytes + counted > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.discarding = true;
      events.push({ kind: 'oversized' });
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private finishLine(events: LineEvent[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    let line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN) line = line.subarray(0, line.length - 1);
    if (line.length > this.maxLineBytes) {
      events.push({ kind: 'oversized' });
      return;
    }
    if (!isBlank(line)) events.push({ kind: 'line', bytes: line });
  }
}

function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== 0x20 && byte !== 0x09 && byte !== CARRIAGE_RETURN) return false;
  }
  return true;
}
