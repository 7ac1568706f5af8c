/** The row type and table of the requestState micro-benchmark (kept free of src/ imports). */

export interface MicroRow {
  readonly codec: 'aes-gcm (ours)' | 'sdk hmac (reference)';
  readonly ledger: number;
  readonly tokenBytes: number;
  readonly sealUs: number;
  readonly openUs: number;
  /** One seal followed by one open of the token. */
  readonly roundTripUs: number;
  readonly roundTripOpsPerSec: number;
}

export function renderMicro(rows: readonly MicroRow[]): string {
  const header = ['codec', 'ledger', 'token B', 'seal us', 'open us', 'seal+open us', 'seal+open ops/s'];
  const body = rows.map((r) => [
    r.codec,
    String(r.ledger),
    r.tokenBytes.toLocaleString('en-US'),
    r.sealUs.toFixed(1),
    r.openUs.toFixed(1),
    r.roundTripUs.toFixed(1),
    Math.round(r.roundTripOpsPerSec).toLocaleString('en-US'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
