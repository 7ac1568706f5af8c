import { isJsonObject } from './is-json-object.js';

/**
 * What is wrong with a parsed JSON value a client sent, or undefined when nothing is: nesting
 * deeper than `maxDepth`, or a number JSON cannot carry (`1e400` parses to Infinity). Iterative, so
 * no input can exhaust the stack; checked before anything transforms, canonicalizes or validates it.
 */
export function jsonBoundsProblem(value: unknown, maxDepth: number): string | undefined {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'holds a number outside the range JSON numbers can carry';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return `is nested deeper than ${maxDepth} levels`;
    const children = Array.isArray(current) ? current : isJsonObject(current) ? Object.values(current) : [];
    for (const child of children)
      if (typeof child === 'object' || typeof child === 'number') stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
