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

  /**
   * A value for an argument a tool mirrors in an `Mcp-Param-*` header (`x-mcp-header`): objects that
   * define their own toString or valueOf, arrays, nested values, null, huge strings, non-ASCII text,
   * CR/LF, as well as the strings, numbers and booleans a header may carry.
   */
  headerArgument(): unknown {
    switch (this.int(14)) {
      case 0:
        return { toString: 1 };
      case 1:
        return { toString: 1, valueOf: 1 };
      case 2:
        return { toString: 'eu-west', valueOf: 'eu-west', constructor: { prototype: { toString: 1 } } };
      case 3:
        // An own "__proto__" key, as JSON.parse makes it (a literal would set the prototype).
        return JSON.parse('{"__proto__":{"toString":1,"valueOf":1}}') as unknown;
      case 4:
        return this.pick([[], ['eu-west'], [['eu-west']], [{ toString: 1 }], [1, 2]]);
      case 5:
        return this.nested(this.int(40));
      case 6:
        return null;
      case 7:
        // Up to 15,000 characters: three of them stay under the 100 KB body limit (a larger body
        // is refused unread, without the request's id).
        return this.pick(['x', '\u00e9', '=?base64?']).repeat(15_000).slice(0, this.int(15_000));
      case 8:
        return this.pick(['Zürich', '東京', '😀', '\ud800', 'café ✓', '\u0085']);
      case 9:
        return this.pick(['eu\r\nX-Injected: 1', '\r\n', '\n', ' padded ', '=?base64?ZXU=?=', '\u0000', '']);
      case 10:
        return this.pick([0, -0, -1, 3, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1.5, 1e308, 5e-324]);
      case 11:
        return this.next() < 0.5;
      case 12:
        return this.value();
      default:
        return this.pick(['eu-west', 'us-east', this.string()]);
    }
  }

  /**
   * The `Mcp-Param-*` header a client might send for `value`: mostly its SEP-2243 mirror (plain
   * when it is safe ASCII, else `=?base64?…?=`), sometimes a stand-in (`[object Object]`, the
   * value's JSON, garbage), sometimes none (undefined). Always something node:http can send, at
   * most 6,000 characters (a longer header would be refused by the HTTP parser, not by MCP).
   */
  headerFor(value: unknown): string | undefined {
    const roll = this.next();
    if (roll < 0.1 || (value === undefined && roll < 0.8)) return undefined;
    let text: string;
    if (roll < 0.3 || value === undefined || value === null) {
      text = this.pick([
        '[object Object]',
        'eu-west',
        '',
        '3',
        'true',
        '=?base64?!!?=',
        '=?base64?ZXU=?=',
        this.string(),
      ]);
    } else if (typeof value === 'string') {
      text = value;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      text = String(value);
    } else {
      text = this.pick(['[object Object]', JSON.stringify(value) ?? '', 'eu-west', '1', 'true']);
    }
    const plain = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/.test(text) && !text.startsWith('=?');
    const header = plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
    return header.slice(0, 6_000);
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
