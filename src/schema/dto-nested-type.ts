import { plainToInstance } from 'class-transformer';

/**
 * The class class-transformer instantiates for a nested value of `dto`'s `property`: the one its
 * `@Type(() => X)` names (own or inherited), or `undefined` when it instantiates none (no
 * `@Type()`, a type that is not a class, or a type function that throws).
 *
 * class-transformer has no public reader for `@Type()` metadata, so this asks the public
 * `plainToInstance` instead: it transforms, once per property at startup, an object whose
 * `property` holds an array of one empty object, and answers the class of the element it builds.
 * An array, because class-transformer applies `@Type()` to every element of one whatever the
 * property holds (a single value, an array, a Set or a Map), so one element answers for all of
 * them; with a discriminator, the element has no discriminator property and gets the base type.
 * The answer is thus the class validation really sees, from the metadata storage the user's
 * decorators wrote to, whichever build of class-transformer (CommonJS or ES module) was loaded.
 *
 * @internal
 */
export function declaredNestedType(dto: Function, property: string): Function | undefined {
  let instance: Record<string, unknown>;
  try {
    instance = plainToInstance(dto as new () => object, { [property]: [{}] }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const built = instance[property];
  const [element] = Array.isArray(built) || built instanceof Set ? [...(built as Iterable<unknown>)] : [];
  if (element === null || typeof element !== 'object') return undefined;
  const type: unknown = (Object.getPrototypeOf(element) as { constructor?: unknown } | null)?.constructor;
  return typeof type === 'function' && type !== Object ? type : undefined;
}
