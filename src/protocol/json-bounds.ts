/**
 * What is wrong with a parsed JSON value a client sent, or undefined when nothing is: nesting
 * deeper than `maxDepth`, or a number JSON cannot carry (`1e400` parses to Infinity). Iterative, so
 * no input can exhaust the stack; checked before anything transforms, canonicalizes or validates it.
 * Runs on every request's params: the values still to visit and their depths sit in two parallel
 * stacks, and an object's own properties are read with `for...in`, so visiting allocates no wrapper
 * per value and no array per object.
 */
export function jsonBoundsProblem(value: unknown, maxDepth: number): string | undefined {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()!;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'holds a number outside the range JSON numbers can carry';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return `is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(current)) {
      for (const child of current) {
        if (typeof child === 'object' || typeof child === 'number') {
          values.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      if (!Object.hasOwn(current, key)) continue;
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === 'object' || typeof child === 'number') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}
