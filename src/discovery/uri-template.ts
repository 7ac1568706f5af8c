/**
 * The part of RFC 6570 that resource templates use: simple `{var}`, reserved `{+var}`, and
 * form-style query `{?a,b}` expressions, matched against a concrete URI.
 */
export class UriTemplate {
  readonly variables: readonly string[];
  private readonly pattern: RegExp;
  private readonly queryVariables: readonly string[];

  constructor(readonly template: string) {
    const variables: string[] = [];
    const query: string[] = [];
    let source = '^';
    let last = 0;
    for (const match of template.matchAll(/\{([+#?&/]?)([^}]+)\}/g)) {
      source += escape(template.slice(last, match.index));
      last = match.index! + match[0].length;
      const [, operator, list] = match;
      const names = list!.split(',').map((n) => n.replace(/\*$|:\d+$/, '').trim());
      if (operator === '?' || operator === '&') {
        query.push(...names);
        continue;
      }
      for (const name of names) {
        if (!/^[A-Za-z0-9_.]+$/.test(name)) throw new Error(`Invalid variable "${name}" in URI template ${template}`);
        variables.push(name);
      }
      if (names.length !== 1) throw new Error(`URI template ${template}: use one variable per expression`);
      source += operator === '+' || operator === '#' ? '(.+?)' : operator === '/' ? '/([^/?#]+)' : '([^/?#]+)';
    }
    source += escape(template.slice(last));
    this.pattern = new RegExp(`${source}${query.length > 0 ? '(?:\\?(.*))?' : ''}$`);
    this.variables = Object.freeze([...variables, ...query]);
    this.queryVariables = Object.freeze(query);
  }

  /** The variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined {
    const match = this.pattern.exec(uri);
    if (!match) return undefined;
    const values: Record<string, string> = {};
    const pathVariables = this.variables.length - this.queryVariables.length;
    for (let i = 0; i < pathVariables; i++) values[this.variables[i]!] = safeDecode(match[i + 1]!);
    const queryString = this.queryVariables.length > 0 ? match[pathVariables + 1] : undefined;
    if (queryString) {
      const params = new URLSearchParams(queryString);
      for (const name of this.queryVariables) {
        const value = params.get(name);
        if (value !== null) values[name] = value;
      }
    }
    return values;
  }
}

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
