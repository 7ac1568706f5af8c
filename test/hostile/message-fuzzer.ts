/** A seeded generator of random and mutated MCP messages (mulberry32), so a failing run can be replayed. */
export class MessageFuzzer {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  /** Any JSON value a hostile client might put somewhere, some deeply nested, some huge. */
  value(depth = 0): unknown {
    switch (this.int(depth > 3 ? 8 : 12)) {
      case 0:
        return null;
      case 1:
        return this.next() < 0.5;
      case 2:
        return this.pick([0, -0, 1, -1, 2 ** 53, -(2 ** 63), 1e308, 5e-324, 0.1, 42, Number.MAX_SAFE_INTEGER + 2]);
      case 3:
        return this.string();
      case 4:
        return '';
      case 5:
        return this.pick([
          'tools/call',
          'initialize',
          'elicitation/create',
          'accept',
          '2025-11-25',
          '2026-07-28',
          '__proto__',
          'constructor',
        ]);
      case 6:
        return 'x'.repeat(this.int(20_000));
      case 7:
        return this.int(1000);
      case 8:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case 9:
        return Object.fromEntries(Array.from({ length: this.int(4) }, () => [this.key(), this.value(depth + 1)]));
      case 10:
        return this.nested(this.int(60));
      default:
        return { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } };
    }
  }

  string(): string {
    const alphabet = [
      'a',
      'Z',
      '0',
      ' ',
      '"',
      '\\',
      '\n',
      '\u0000',
      'é',
      '✓',
      '😀',
      '\ud800',
      '=?base64?',
      '%00',
      '<script>',
    ];
    return Array.from({ length: this.int(30) }, () => this.pick(alphabet)).join('');
  }

  key(): string {
    return this.pick([
      'name',
      'arguments',
      '_meta',
      'uri',
      'cursor',
      'requestState',
      'inputResponses',
      'id',
      'method',
      'params',
      'root',
      'child',
      '__proto__',
      this.string(),
    ]);
  }

  nested(depth: number): unknown {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { child: value };
    return value;
  }

  /** A copy of `message` with one to three random mutations. */
  mutate(message: Record<string, unknown>): unknown {
    let copy: unknown = structuredClone(message);
    for (let i = 0, n = 1 + this.int(3); i < n; i++) copy = this.mutateOnce(copy);
    return copy;
  }

  private mutateOnce(message: unknown): unknown {
    if (typeof message !== 'object' || message === null) return this.value();
    const paths = collectPaths(message);
    const path = this.pick(paths);
    switch (this.int(6)) {
      case 0:
        return this.value();
      case 1:
        return [message];
      case 2:
        return setAt(message, path, undefined);
      default:
        return setAt(message, path, this.value());
    }
  }
}

type Path = readonly (string | number)[];

function collectPaths(value: unknown, prefix: Path = [], out: Path[] = [[]]): Path[] {
  if (typeof value !== 'object' || value === null || prefix.length > 6) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path);
    collectPaths(child, path, out);
  }
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return root;
}
